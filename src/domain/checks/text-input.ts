// docs/decisions.md, Hardening: text that cannot be stored as it was sent, or that drives a terminal. A lone UTF-16
// surrogate becomes U+FFFD on its way to UTF-8 (SQLite), so two different codes would be stored
// as one; control characters (Unicode Cc: C0, DEL, C1) can clear an operator's screen or forge
// table rows. Tab and newline stay allowed in descriptions, where they are ordinary layout.

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_TAB_NEWLINE = /(?![\t\n])\p{Cc}/u;

/** Body fields that are free prose: `description` of links and payments. */
const LAYOUT_FIELDS: ReadonlySet<string> = new Set(["description"]);

/** Why a string cannot be accepted, or null when it can. */
export function textProblemOf(value: string, allowLayout: boolean): string | null {
  if (LONE_SURROGATE.test(value)) return "must not contain unpaired surrogate code units";
  if ((allowLayout ? CONTROL_BUT_TAB_NEWLINE : CONTROL).test(value)) {
    return allowLayout ? "must not contain control characters other than tab and newline" : "must not contain control characters";
  }
  return null;
}

const childPath = (parent: string, key: string | number): string =>
  typeof key === "number" ? `${parent}[${key}]` : parent === "" ? key : `${parent}.${key}`;

/**
 * The first string anywhere in a parsed JSON body (object keys included) that `textProblemOf`
 * refuses, as `path: rule` in the shape of every other 400 message, or null when all are fine.
 */
export function findTextProblem(body: unknown, path = ""): string | null {
  if (typeof body === "string") {
    const leaf = path.slice(path.lastIndexOf(".") + 1);
    const problem = textProblemOf(body, LAYOUT_FIELDS.has(leaf));
    return problem === null ? null : `${path === "" ? "body" : path}: ${problem}`;
  }
  if (Array.isArray(body)) {
    for (let i = 0; i < body.length; i += 1) {
      const found = findTextProblem(body[i], childPath(path, i));
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof body !== "object" || body === null) return null;
  for (const [key, value] of Object.entries(body)) {
    const keyProblem = textProblemOf(key, false);
    if (keyProblem !== null) return `${path === "" ? "body" : path}: field names ${keyProblem}`;
    const found = findTextProblem(value, childPath(path, key));
    if (found !== null) return found;
  }
  return null;
}
