// ISO-8859-9 (Latin-5), the charset EST and Posnet write their XML (and EST its callbacks) in: ISO-8859-1 except at six
// code points (Ğ İ Ş ğ ı ş replace Ð Ý Þ ð ý þ). A table, so it behaves the same on Node and Bun.

const TURKISH: ReadonlyArray<[number, string]> = [
  [0xd0, "Ğ"],
  [0xdd, "İ"],
  [0xde, "Ş"],
  [0xf0, "ğ"],
  [0xfd, "ı"],
  [0xfe, "ş"],
];
const BYTE_TO_CHAR = new Map(TURKISH);
const CHAR_TO_BYTE = new Map(TURKISH.map(([b, c]) => [c, b]));
const LATIN1_ONLY = new Set(TURKISH.map(([b]) => String.fromCharCode(b)));

export function decodeIso88599(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += BYTE_TO_CHAR.get(b) ?? String.fromCharCode(b);
  return out;
}

/** Characters outside the charset become `?`, as a bank's own encoder would write them. */
export function encodeIso88599(text: string): Uint8Array {
  const out: number[] = [];
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    const turkish = CHAR_TO_BYTE.get(ch);
    if (turkish !== undefined) out.push(turkish);
    else if (code < 0x100 && !LATIN1_ONLY.has(ch)) out.push(code);
    else out.push(0x3f);
  }
  return Uint8Array.from(out);
}
