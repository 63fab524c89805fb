// `application/x-www-form-urlencoded` as the AkbankPos gate posts it: UTF-8 text (its messages have
// Turkish letters), `+` a space, `%XX` an octet. Fields stay in posted order, so a name posted
// twice is seen; bytes that are not UTF-8 make the whole body unreadable (null).

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decodeComponent(raw: string): string | null {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 0x2b) bytes.push(0x20);
    else if (c === 0x25 && /^[0-9A-Fa-f]{2}$/.test(raw.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(raw.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) bytes.push(c);
    else return null;
  }
  try {
    return utf8.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

export function parseForm(body: Uint8Array): Array<[string, string]> | null {
  const text = new TextDecoder("latin1").decode(body);
  const fields: Array<[string, string]> = [];
  for (const part of text.split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = decodeComponent(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? "" : decodeComponent(part.slice(eq + 1));
    if (name === null || value === null) return null;
    fields.push([name, value]);
  }
  return fields;
}

/** The other direction (the simulator's callback, tests): UTF-8, unreserved characters kept. */
export const encodeForm = (fields: ReadonlyArray<readonly [string, string]>): string =>
  fields.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`.replace(/%20/g, "+")).join("&");
