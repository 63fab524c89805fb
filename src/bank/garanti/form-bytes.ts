// `application/x-www-form-urlencoded` parsed to bytes: split on `&` and `=`, `+` is a space, `%XX`
// is one octet. No charset decoding, so a callback's values reach the hash exactly as the bank
// signed them (its `md`, `cavv` and `rnd` carry `+`, `/` and `=`, percent-encoded by the browser).

const PLUS = 0x2b;
const PERCENT = 0x25;
const AMP = 0x26;
const EQUALS = 0x3d;

function hexValue(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function decodeComponent(raw: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as number;
    if (c === PLUS) out.push(0x20);
    else if (c === PERCENT && hexValue(raw[i + 1]) >= 0 && hexValue(raw[i + 2]) >= 0) {
      out.push(hexValue(raw[i + 1]) * 16 + hexValue(raw[i + 2]));
      i += 2;
    } else out.push(c);
  }
  return Uint8Array.from(out);
}

/** Fields in posted order; names as Latin-1 text (the bank's names are ASCII), values as bytes. */
export function parseFormBytes(body: Uint8Array): Array<[string, Uint8Array]> {
  const fields: Array<[string, Uint8Array]> = [];
  let start = 0;
  for (let i = 0; i <= body.length; i++) {
    if (i < body.length && body[i] !== AMP) continue;
    const part = body.subarray(start, i);
    start = i + 1;
    if (part.length === 0) continue;
    const eq = part.indexOf(EQUALS);
    const name = decodeComponent(eq < 0 ? part : part.subarray(0, eq));
    const value = eq < 0 ? new Uint8Array(0) : decodeComponent(part.subarray(eq + 1));
    fields.push([String.fromCharCode(...name), value]);
  }
  return fields;
}

/** The other direction, for the simulator and tests: every byte but the unreserved ones percent-encoded. */
export function encodeFormText(fields: ReadonlyArray<readonly [string, string]>): string {
  const enc = (text: string): string => {
    let s = "";
    for (const b of new TextEncoder().encode(text)) {
      const ch = String.fromCharCode(b);
      s += /[A-Za-z0-9*\-._]/.test(ch) ? ch : b === 0x20 ? "+" : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    }
    return s;
  };
  return fields.map(([n, v]) => `${enc(n)}=${enc(v)}`).join("&");
}
