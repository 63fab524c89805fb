// docs/decisions.md, Hardening: partner-supplied text (names, descriptions, URLs, payer names, item names) reaches
// the operator's terminal through the CLI's human output. A control character in it could clear
// the screen, move the cursor, recolour or forge table rows, and bidirectional overrides can
// reorder what is shown; each is printed as a visible escape instead (`\x1b`, `\n`, `\u202e`).

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is matched
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

const escapeOne = (c: string): string => {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`);
};

/** One value (a table cell, a detail): every control character escaped, newlines included. */
export const escapeControls = (text: string): string => text.replace(CONTROL, escapeOne);

/** A whole human output: line breaks stay (they are the output's own), everything else is escaped. */
export const escapeControlsKeepLines = (text: string): string => text.split("\n").map(escapeControls).join("\n");
