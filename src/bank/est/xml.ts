import { decodeIso88599, encodeIso88599 } from "../iso-8859-9";

// The CC5Request / CC5Response XML of EST's `/fim/api`: an ISO-8859-9 declaration, one line of
// elements, empty elements written `<X></X>`, and one level of nesting (`Extra`). The writer
// reproduces the bytes of the public library's serializer test; the reader accepts exactly one
// root element and answers null for anything else (HTML, truncated or garbage XML): an unknown
// outcome for the caller, never a guess.

export type XmlValue = string | { readonly [name: string]: string };
export type XmlRecord = { readonly [name: string]: XmlValue };

const escapeXml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function elements(record: XmlRecord): string {
  let out = "";
  for (const [name, value] of Object.entries(record)) {
    out += `<${name}>${typeof value === "string" ? escapeXml(value) : elements(value)}</${name}>`;
  }
  return out;
}

export function writeXml(root: string, record: XmlRecord): Uint8Array {
  return encodeIso88599(`<?xml version="1.0" encoding="ISO-8859-9"?>\n<${root}>${elements(record)}</${root}>\n`);
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

const OPEN = /^<([A-Za-z_][A-Za-z0-9_.-]*)\s*(\/?)>/;

/** Children of one element; null when the content is not a plain sequence of elements. */
function children(content: string, depth: number): Record<string, XmlValue> | null {
  const out: Record<string, XmlValue> = {};
  let at = 0;
  for (;;) {
    while (at < content.length && /\s/.test(content[at] as string)) at++;
    if (at >= content.length) return out;
    const open = OPEN.exec(content.slice(at));
    if (!open) return null;
    const name = open[1] as string;
    at += open[0].length;
    if (open[2] === "/") {
      out[name] = "";
      continue;
    }
    const end = content.indexOf(`</${name}>`, at);
    if (end < 0) return null;
    const inner = content.slice(at, end);
    at = end + name.length + 3;
    const value = inner.includes("<") ? (depth >= 1 ? null : children(inner, depth + 1)) : unescapeXml(inner);
    if (value === null) return null;
    out[name] = value as XmlValue;
  }
}

/** The named root's children, or null when the bytes are not exactly that document. */
export function readXml(bytes: Uint8Array, root: string): Record<string, XmlValue> | null {
  let text = decodeIso88599(bytes)
    .replace(/^\uFEFF/, "")
    .trim();
  if (text.startsWith("DATA=")) text = text.slice(5);
  text = text.replace(/^<\?xml[^?]*\?>/, "").trim();
  const open = `<${root}>`;
  const close = `</${root}>`;
  if (!text.startsWith(open) || !text.endsWith(close)) return null;
  return children(text.slice(open.length, -close.length), 0);
}
