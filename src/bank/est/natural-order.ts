// PHP's natural, case-insensitive key order (`ksort($a, SORT_NATURAL | SORT_FLAG_CASE)`, which is
// php-src strnatcmp_ex with fold_case=1): the order EST's ver3 hash puts the posted fields in.
// Case folding is toupper, so `_` (0x5F) sorts after letters (`aB` < `a_b`), and runs of digits
// compare as numbers (`TRX2` < `TRX10`). A toLowerCase or localeCompare comparator gets both wrong.

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);
const upper = (c: number): number => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c);

/** Byte at i, or 0 past the end (the C code reads the terminating NUL there). */
const at = (s: Uint8Array, i: number): number => (i < s.length ? (s[i] as number) : 0);

/** Two right-aligned digit runs: the longer wins, else the first difference. */
function compareRight(a: Uint8Array, ai: number, b: Uint8Array, bi: number): [number, number, number] {
  let bias = 0;
  for (; ; ai++, bi++) {
    const da = ai < a.length && isDigit(at(a, ai));
    const db = bi < b.length && isDigit(at(b, bi));
    if (!da && !db) return [bias, ai, bi];
    if (!da) return [-1, ai, bi];
    if (!db) return [1, ai, bi];
    if (bias === 0 && at(a, ai) !== at(b, bi)) bias = at(a, ai) < at(b, bi) ? -1 : 1;
  }
}

/** Two digit runs with a leading zero (fractional parts): the first difference wins. */
function compareLeft(a: Uint8Array, ai: number, b: Uint8Array, bi: number): [number, number, number] {
  for (; ; ai++, bi++) {
    const da = ai < a.length && isDigit(at(a, ai));
    const db = bi < b.length && isDigit(at(b, bi));
    if (!da && !db) return [0, ai, bi];
    if (!da) return [-1, ai, bi];
    if (!db) return [1, ai, bi];
    if (at(a, ai) !== at(b, bi)) return [at(a, ai) < at(b, bi) ? -1 : 1, ai, bi];
  }
}

/** strnatcmp_ex(a, b, fold_case=1) over bytes: negative, zero or positive. */
export function natCaseCompareBytes(a: Uint8Array, b: Uint8Array): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length > b.length ? 1 : -1;
  let ai = 0;
  let bi = 0;
  let leading = true;
  for (;;) {
    let ca = at(a, ai);
    let cb = at(b, bi);
    while (leading && ca === 0x30 && ai + 1 < a.length && isDigit(at(a, ai + 1))) ca = at(a, ++ai);
    while (leading && cb === 0x30 && bi + 1 < b.length && isDigit(at(b, bi + 1))) cb = at(b, ++bi);
    leading = false;
    while (isSpace(ca)) ca = at(a, ++ai);
    while (isSpace(cb)) cb = at(b, ++bi);
    if (isDigit(ca) && isDigit(cb)) {
      const [result, na, nb] = ca === 0x30 || cb === 0x30 ? compareLeft(a, ai, b, bi) : compareRight(a, ai, b, bi);
      ai = na;
      bi = nb;
      if (result !== 0) return result;
      if (ai >= a.length && bi >= b.length) return 0;
      if (ai >= a.length) return -1;
      if (bi >= b.length) return 1;
      ca = at(a, ai);
      cb = at(b, bi);
    }
    ca = upper(ca);
    cb = upper(cb);
    if (ca !== cb) return ca < cb ? -1 : 1;
    ai++;
    bi++;
    if (ai >= a.length && bi >= b.length) return 0;
    if (ai >= a.length) return -1;
    if (bi >= b.length) return 1;
  }
}

const latin1 = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0) & 0xff);

/** Field names are ASCII on every EST form; compared as their bytes. */
export const natCaseCompare = (a: string, b: string): number => natCaseCompareBytes(latin1(a), latin1(b));
