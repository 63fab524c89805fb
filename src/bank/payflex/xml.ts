// PayFlex's XML (docs/banks-payflex.md, "The wire"): requests are written like the library whose
// tests pin them down (no declaration on a VposRequest, no whitespace, an empty value as `<X></X>`,
// a value holding `<`, `>` or `&` in CDATA); answers are read strictly, so an HTML page, an empty
// body or a cut document is no answer at all.

export type XmlFields = ReadonlyArray<readonly [string, string | XmlFields]>;

const needsCdata = (value: string): boolean => /[<>&]/.test(value);

function writeFields(fields: XmlFields): string {
  let out = "";
  for (const [name, value] of fields) {
    const inner =
      typeof value === "string"
        ? needsCdata(value)
          ? `<![CDATA[${value.replaceAll("]]>", "]]]]><![CDATA[>")}]]>`
          : value
        : writeFields(value);
    out += `<${name}>${inner}</${name}>`;
  }
  return out;
}

/** `<VposRequest>…</VposRequest>` with no declaration and no trailing newline. */
export const writeVposRequest = (fields: XmlFields): string => `<VposRequest>${writeFields(fields)}</VposRequest>`;

/** A document with the declaration, a newline after it and one at the end (the SearchRequest shape). */
export const writeDocument = (root: string, fields: XmlFields): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root}>${writeFields(fields)}</${root}>\n`;

/** One element of an answer: its text (children's text excluded) and its children in order. */
export interface XmlNode {
  name: string;
  text: string;
  children: XmlNode[];
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntities(s: string): string | null {
  let bad = false;
  const out = s.replace(/&(#\d+|#x[0-9a-fA-F]+|[a-z]+);|&/g, (m, ref?: string) => {
    if (ref === undefined) {
      bad = true;
      return m;
    }
    if (ref.startsWith("#x")) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
    if (ref.startsWith("#")) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
    const named = ENTITIES[ref];
    if (named === undefined) bad = true;
    return named ?? m;
  });
  return bad ? null : out;
}

const NAME = /^[A-Za-z_][\w.-]*/;

/** Parses one well-formed document (an optional declaration, one root, nothing after it); null otherwise. */
export function parseXml(text: string): XmlNode | null {
  let at = 0;
  const skipSpace = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  if (text.charCodeAt(0) === 0xfeff) at = 1;
  skipSpace();
  if (text.startsWith("<?xml", at)) {
    const end = text.indexOf("?>", at);
    if (end < 0) return null;
    at = end + 2;
  }
  skipSpace();
  const root = element();
  skipSpace();
  return root !== null && at === text.length ? root : null;

  function element(): XmlNode | null {
    if (text[at] !== "<") return null;
    const name = NAME.exec(text.slice(at + 1, at + 200))?.[0];
    if (!name) return null;
    at += 1 + name.length;
    const close = text.indexOf(">", at);
    if (close < 0) return null;
    // Attributes are not used by any PayFlex answer kasa reads; they are skipped, not interpreted.
    const selfClosing = text[close - 1] === "/";
    at = close + 1;
    const node: XmlNode = { name, text: "", children: [] };
    if (selfClosing) return node;
    for (;;) {
      if (at >= text.length) return null;
      if (text.startsWith(`</${name}`, at)) {
        const end = text.indexOf(">", at);
        if (end < 0 || text.slice(at + 2 + name.length, end).trim() !== "") return null;
        at = end + 1;
        return node;
      }
      if (text.startsWith("<![CDATA[", at)) {
        const end = text.indexOf("]]>", at);
        if (end < 0) return null;
        node.text += text.slice(at + 9, end);
        at = end + 3;
      } else if (text.startsWith("<!--", at)) {
        const end = text.indexOf("-->", at);
        if (end < 0) return null;
        at = end + 3;
      } else if (text[at] === "<") {
        const child = element();
        if (child === null) return null;
        node.children.push(child);
      } else {
        const next = text.indexOf("<", at);
        if (next < 0) return null;
        const decoded = decodeEntities(text.slice(at, next));
        if (decoded === null) return null;
        node.text += decoded;
        at = next;
      }
    }
  }
}

/** The element's text, trimmed of the indentation between child elements; "" for an element with children. */
export const textOf = (node: XmlNode): string => (node.children.length > 0 ? "" : node.text);

export const child = (node: XmlNode | undefined, name: string): XmlNode | undefined => node?.children.find((c) => c.name === name);

/** The text of a child element, or null when it is absent. */
export const childText = (node: XmlNode | undefined, name: string): string | null => {
  const c = child(node, name);
  return c === undefined ? null : textOf(c);
};

/** A flat record of the children's texts (and nested records), the decoded shape of the vectors. */
export function toRecord(node: XmlNode): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of node.children) out[c.name] = c.children.length > 0 ? toRecord(c) : c.text;
  return out;
}
