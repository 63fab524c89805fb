import { readFileSync, statSync } from "node:fs";
import { defineCommand } from "citty";
import { parseBinCsv } from "../../src/domain/installments/bin-csv";
import { importBins } from "../../src/domain/installments/bin-import";
import { BIN_CSV_MAX_BYTES } from "../../src/limits";
import { CliError } from "../cli-error";
import { commonArgs, output, withStore } from "../context";

// `kasa bins import FILE.csv`. The file is validated whole before the database is
// opened, then src/domain/installments/bin-import.ts writes it in ONE unit of work: a file with
// one bad line imports nothing.

/** Reads the file as text, refusing what cannot be a BIN list before reading it into memory. */
function readCsv(file: string): string {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new CliError(`${file}: cannot read the file`);
  }
  if (size > BIN_CSV_MAX_BYTES) throw new CliError(`${file}: larger than ${BIN_CSV_MAX_BYTES} bytes`);
  return readFileSync(file, "utf8");
}

export const binsImportCommand = defineCommand({
  meta: {
    name: "import",
    description:
      "Import a BIN table CSV (bin,brand,family,bank,installments), all or nothing.\n\nExample: kasa bins import bins.csv --db kasa.db",
  },
  args: {
    file: {
      type: "positional",
      description: "CSV file with the header bin,brand,family,bank,installments",
      valueHint: "FILE.csv",
      required: true,
    },
    ...commonArgs,
  },
  async run({ args }) {
    const parsed = parseBinCsv(readCsv(args.file));
    // The parser's message starts with the field (`family: must be one of …`), so this line
    // names file, line and field, as an operator needs to fix it in an editor.
    if (!parsed.ok) throw new CliError(`${args.file} line ${parsed.line}: ${parsed.message}; nothing was imported`);
    const rows = parsed.rows;
    const imported = await withStore(args, (ctx) => importBins(ctx, rows), { create: true });
    output(args, { file: args.file, imported }, () => `Imported ${imported} BIN rows from ${args.file}.`);
  },
});

export const binsCommand = defineCommand({
  meta: {
    name: "bins",
    description: "Manage the BIN table (card brand, family, bank per 8-digit BIN).\n\nExample: kasa bins import bins.csv",
  },
  subCommands: { import: binsImportCommand },
});
