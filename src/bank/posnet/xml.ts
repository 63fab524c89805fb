import { decodeIso88599, encodeIso88599 } from "../iso-8859-9";

// The posnetRequest / posnetResponse XML of Posnet's `PosnetWebService/XML`: an ISO-8859-9
// declaration, one line of elements, nesting where the operation has it (`<oosRequestData>`,
// `<transactions><transaction>`). The writer reproduces the serializer layout of the public
// library's tests; the reader builds a small tree and answers null for anything that is not
// exactly one well-formed root (HTML, truncated or garbage bytes): an unknown outcome, never a guess.

/** An element's value: text, children, or (written as repeated elements of the name) a list. */
export type XmlFields = { readonly [name: string]: string | XmlFields | readonly XmlFields[] };

export interface XmlNode {
  name: string;
  text: string;
  children: XmlNode[];
}

const escapeXml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function elements(fields: XmlFields): string {
  let out = "";
  for (const [name, value] of Object.entries(fields)) {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items) out += `<${name}>${typeof item === "string" ? escapeXml(item) : elements(item as XmlFields)}</${name}>`;
  }
  return out;
}

/** The exact bytes of a request (or, for the simulator, an answer) under `root`. */
export const xmlText = (root: string, fields: XmlFields): string =>
  `<?xml version="1.0" encoding="ISO-8859-9"?>\n<${root}>${elements(fields)}</${root}>\n`;

export const writeXml = (root: string, fields: XmlFields): Uint8Array => encodeIso88599(xmlText(root, fields));

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

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

const OPEN = /^<([A-Za-z_][A-Za-z0-9_.-]*)\s*(\/?)>/;
const MAX_DEPTH = 6;

/** The elements of `content` from `at`; null when it is not a plain sequence of elements. */
function parseChildren(content: string, depth: number): XmlNode[] | null {
  if (depth > MAX_DEPTH) return null;
  const out: XmlNode[] = [];
  let at = 0;
  for (;;) {
    while (at < content.length && /\s/.test(content[at] as string)) at++;
    if (at >= content.length) return out;
    const open = OPEN.exec(content.slice(at));
    if (!open) return null;
    const name = open[1] as string;
    at += open[0].length;
    if (open[2] === "/") {
      out.push({ name, text: "", children: [] });
      continue;
    }
    const end = closingOf(content, name, at);
    if (end < 0) return null;
    const inner = content.slice(at, end);
    at = end + name.length + 3;
    if (inner.includes("<")) {
      const children = parseChildren(inner, depth + 1);
      if (children === null) return null;
      out.push({ name, text: "", children });
    } else {
      const text = unescapeXml(inner);
      if (text === null) return null;
      out.push({ name, text, children: [] });
    }
  }
}

/** Where the element opened before `from` closes, counting nested elements of the same name. */
function closingOf(content: string, name: string, from: number): number {
  let depth = 1;
  const tag = new RegExp(`<(/?)${name.replace(/\./g, "\\.")}\\s*(/?)>`, "g");
  tag.lastIndex = from;
  for (let m = tag.exec(content); m !== null; m = tag.exec(content)) {
    if (m[2] === "/") continue;
    depth += m[1] === "/" ? -1 : 1;
    if (depth === 0) return m.index;
  }
  return -1;
}

/** The named root as a tree, or null when the bytes are not exactly that document. */
export function readXml(bytes: Uint8Array, root: string): XmlNode | null {
  const text = decodeIso88599(bytes)
    .replace(/^\uFEFF/, "")
    .trim()
    .replace(/^<\?xml[^?]*\?>/, "")
    .trim();
  const open = `<${root}>`;
  const close = `</${root}>`;
  if (!text.startsWith(open) || !text.endsWith(close)) return null;
  const children = parseChildren(text.slice(open.length, -close.length), 1);
  return children === null ? null : { name: root, text: "", children };
}

/** The one child of that name; null when absent or present twice (an answer is never trusted twice). */
export function child(node: XmlNode | null | undefined, name: string): XmlNode | null {
  const found = node?.children.filter((c) => c.name === name) ?? [];
  return found.length === 1 ? (found[0] as XmlNode) : null;
}

export const textOf = (node: XmlNode | null | undefined, name: string): string | null => {
  const c = child(node, name);
  return c === null || c.children.length > 0 ? null : c.text;
};

export const childrenNamed = (node: XmlNode | null | undefined, name: string): XmlNode[] =>
  node?.children.filter((c) => c.name === name) ?? [];
