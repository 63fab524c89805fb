// GVPSRequest / GVPSResponse XML (docs/banks-garanti.md, "The protocol as kasa speaks it"). The
// writer reproduces the public library's serializer byte for byte: a UTF-8 declaration, a line
// feed, the document on one line, empty elements written `<X></X>`, a trailing line feed. The
// reader takes any one root element (the bank's root name is not documented) and answers null for
// anything that is not one well-formed UTF-8 document (garbage, truncated XML). A well-formed HTML
// page reads, but carries no `Transaction/Response/Code`, so the caller sees no answer either: an
// unknown outcome, never a guess.

/** Elements in order; a value is text or the children of a nested element. */
export type XmlTree = ReadonlyArray<readonly [name: string, value: string | XmlTree]>;

const escapeXml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function elements(tree: XmlTree): string {
  let out = "";
  for (const [name, value] of tree) out += `<${name}>${typeof value === "string" ? escapeXml(value) : elements(value)}</${name}>`;
  return out;
}

export const writeXmlText = (root: string, tree: XmlTree): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root}>${elements(tree)}</${root}>\n`;

export const writeXml = (root: string, tree: XmlTree): Uint8Array => new TextEncoder().encode(writeXmlText(root, tree));

export interface XmlNode {
  name: string;
  text: string;
  children: XmlNode[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Entity and character references decoded; null for a bare or unknown `&`. */
function unescapeXml(s: string): string | null {
  let bad = false;
  const out = s.replace(/&(?:#x([0-9a-fA-F]{1,6});|#([0-9]{1,7});|([a-z]+);)?/g, (_whole, hex?: string, dec?: string, named?: string) => {
    const code = hex !== undefined ? Number.parseInt(hex, 16) : dec !== undefined ? Number.parseInt(dec, 10) : null;
    if (code !== null && code <= 0x10ffff) return String.fromCodePoint(code);
    const text = named === undefined ? undefined : ENTITIES[named];
    if (text === undefined) bad = true;
    return text ?? "";
  });
  return bad ? null : out;
}

const TAG = /^<(\/?)([A-Za-z_][A-Za-z0-9_.-]*)(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*(\/?)>$/;

function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The document's root element, or null when the bytes are not exactly one well-formed document. */
export function readXml(bytes: Uint8Array): XmlNode | null {
  const text = decodeUtf8(bytes);
  if (text === null) return null;
  const body = text
    .replace(/^\uFEFF/, "")
    .replace(/^\s*<\?xml[^?]*\?>/, "")
    .replace(/<!--[\s\S]*?-->/g, "");
  const stack: XmlNode[] = [];
  let root: XmlNode | null = null;
  for (const token of body.match(/<[^>]*>|[^<]+/g) ?? []) {
    const top = stack[stack.length - 1];
    if (!token.startsWith("<")) {
      if (top === undefined) {
        if (token.trim() !== "") return null;
        continue;
      }
      const decoded = unescapeXml(token);
      if (decoded === null) return null;
      top.text += decoded;
      continue;
    }
    const tag = TAG.exec(token);
    if (!tag) return null;
    const [, closing, name, selfClosing] = tag as unknown as [string, string, string, string];
    if (closing) {
      if (selfClosing || top?.name !== name) return null;
      stack.pop();
      continue;
    }
    if (root !== null && stack.length === 0) return null;
    const node: XmlNode = { name, text: "", children: [] };
    if (top) top.children.push(node);
    else root = node;
    if (!selfClosing) stack.push(node);
  }
  return stack.length === 0 ? root : null;
}

/** The first element at `path` (`Transaction/Response/Code`) below `node`. */
export function xmlAt(node: XmlNode | null | undefined, path: string): XmlNode | undefined {
  let at: XmlNode | undefined = node ?? undefined;
  for (const name of path.split("/")) at = at?.children.find((c) => c.name === name);
  return at;
}

/** The trimmed text at `path`, or null where there is no such element. */
export const xmlText = (node: XmlNode | null | undefined, path: string): string | null => {
  const at = xmlAt(node, path);
  return at === undefined ? null : at.text.trim();
};
