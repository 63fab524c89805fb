import { CARD_FAMILIES, type BinRow, type CardFamily } from "./types";

// Parser of `kasa bins import FILE.csv` (docs/operating.md, The operator CLI). The file is validated whole before
// anything is written, like a seed file (docs/seed.md, The seed file): the first bad line is reported with its
// 1-based line number (the header is line 1) and column, so an operator can fix it in an editor.
//
// Format: header `bin,brand,family,bank,installments`, then one BIN per line. Fields are trimmed;
// an empty brand or bank means null. RFC 4180 double quotes are accepted for names that contain
// commas (`"Bank, A.S."`, with `""` for a quote); a quoted field cannot span lines. Blank lines
// and a UTF-8 byte-order mark (spreadsheet exports add both) are ignored.

export const BIN_CSV_HEADER = ["bin", "brand", "family", "bank", "installments"] as const;

export type BinCsvField = (typeof BIN_CSV_HEADER)[number];

// Limits kept here until limits.ts exists (DESIGN.md style 5 wants each number there, once).
// The national BIN range list is a few thousand rows; 200k leaves room without letting a wrong
// file (a card dump, a log) be parsed into memory whole.
export const BIN_CSV_MAX_ROWS = 200_000;
export const BIN_CSV_MAX_NAME_CHARS = 120;

export type BinCsvResult = { ok: true; rows: BinRow[] } | { ok: false; line: number; field: BinCsvField | null; message: string };

type LineError = { field: BinCsvField | null; message: string };

export function parseBinCsv(text: string): BinCsvResult {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const header = splitCsvLine(lines[0] ?? "");
  if (typeof header === "string" || header.join(",") !== BIN_CSV_HEADER.join(",")) {
    return { ok: false, line: 1, field: null, message: `header: must be ${BIN_CSV_HEADER.join(",")}` };
  }
  const rows: BinRow[] = [];
  const lineOfBin = new Map<string, number>();
  for (let index = 1; index < lines.length; index += 1) {
    const content = lines[index] as string;
    if (content.trim() === "") continue;
    const line = index + 1;
    if (rows.length === BIN_CSV_MAX_ROWS) {
      return { ok: false, line, field: null, message: `file: at most ${BIN_CSV_MAX_ROWS} rows` };
    }
    const parsed = toBinRow(content);
    if ("message" in parsed) return { ok: false, line, ...parsed };
    const first = lineOfBin.get(parsed.bin);
    if (first !== undefined) {
      return { ok: false, line, field: "bin", message: `bin: ${parsed.bin} already on line ${first}` };
    }
    lineOfBin.set(parsed.bin, line);
    rows.push(parsed);
  }
  return { ok: true, rows };
}

function toBinRow(text: string): BinRow | LineError {
  const fields = splitCsvLine(text);
  if (typeof fields === "string") return { field: null, message: fields };
  if (fields.length !== BIN_CSV_HEADER.length) {
    return { field: null, message: `row: must have ${BIN_CSV_HEADER.length} fields, has ${fields.length}` };
  }
  const [bin, brand, family, bank, installments] = fields as [string, string, string, string, string];
  if (!/^[0-9]{8}$/.test(bin)) return { field: "bin", message: "bin: must be exactly 8 digits" };
  if (brand.length > BIN_CSV_MAX_NAME_CHARS) return tooLong("brand");
  if (!(CARD_FAMILIES as readonly string[]).includes(family)) {
    return { field: "family", message: `family: must be one of ${CARD_FAMILIES.join(", ")}` };
  }
  if (bank.length > BIN_CSV_MAX_NAME_CHARS) return tooLong("bank");
  if (installments !== "true" && installments !== "false") {
    return { field: "installments", message: "installments: must be true or false" };
  }
  return {
    bin,
    brand: brand === "" ? null : brand,
    family: family as CardFamily,
    bank: bank === "" ? null : bank,
    installments: installments === "true",
  };
}

function tooLong(field: "brand" | "bank"): LineError {
  return { field, message: `${field}: at most ${BIN_CSV_MAX_NAME_CHARS} characters` };
}

/** Splits one CSV line into trimmed fields, or returns the message of a quoting error. */
function splitCsvLine(text: string): string[] | string {
  const fields: string[] = [];
  let position = 0;
  for (;;) {
    while (text[position] === " " || text[position] === "\t") position += 1;
    let value: string;
    if (text[position] === '"') {
      const quoted = readQuoted(text, position + 1);
      if (quoted === null) return "row: unterminated quoted field";
      value = quoted.value;
      position = quoted.end;
      while (text[position] === " " || text[position] === "\t") position += 1;
      if (position < text.length && text[position] !== ",") return "row: text after a quoted field";
    } else {
      const comma = text.indexOf(",", position);
      const end = comma === -1 ? text.length : comma;
      value = text.slice(position, end).trim();
      if (value.includes('"')) return "row: quote inside an unquoted field";
      position = end;
    }
    fields.push(value);
    if (position >= text.length) return fields;
    position += 1; // the comma
  }
}

/** Reads a quoted field whose opening quote precedes `start`; `end` is just past the closing quote. */
function readQuoted(text: string, start: number): { value: string; end: number } | null {
  let value = "";
  let position = start;
  while (position < text.length) {
    const quote = text.indexOf('"', position);
    if (quote === -1) return null;
    value += text.slice(position, quote);
    if (text[quote + 1] === '"') {
      value += '"';
      position = quote + 2;
    } else {
      return { value: value.trim(), end: quote + 1 };
    }
  }
  return null;
}
