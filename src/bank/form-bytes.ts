// `application/x-www-form-urlencoded` parsed to bytes, as PHP's $_POST hands them to the banks'
// own sample code: split on `&` and `=`, `+` is a space, `%XX` is one octet. No charset decoding,
// so a callback's values (EST's ISO-8859-9, Garanti's base64 `md`, `cavv` and `rnd` with `+`, `/`
// and `=`) reach the hash exactly as the bank signed them.

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

const latin1Text = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

/** Fields in posted order; names as Latin-1 text (the banks' names are ASCII), values as bytes. */
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
    fields.push([latin1Text(name), value]);
  }
  return fields;
}

/** The other direction, for the simulator's own posts: each byte of a value percent-encoded unless unreserved. */
export function encodeFormBytes(fields: ReadonlyArray<readonly [string, Uint8Array]>): string {
  const enc = (bytes: Uint8Array): string => {
    let s = "";
    for (const b of bytes) {
      const ch = String.fromCharCode(b);
      s += /[A-Za-z0-9*\-._]/.test(ch) ? ch : b === 0x20 ? "+" : `%${b.toString(16).toUpperCase().padStart(2, "0")}`;
    }
    return s;
  };
  return fields.map(([n, v]) => `${enc(new TextEncoder().encode(n))}=${enc(v)}`).join("&");
}

/** The same for text values (UTF-8), for simulators and tests: every byte but the unreserved ones percent-encoded. */
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
