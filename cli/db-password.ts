import { readFileSync } from "node:fs";
import { Sensitive } from "../src/sensitive";
import { CliError } from "./cli-error";

// A PostgreSQL password need not sit in the URL on the command line, where `ps` and shell
// histories show it: `--db-password-file FILE` (its first line) first, else the URL's, else the
// libpq convention $PGPASSWORD, which the driver reads itself.

export const dbPasswordArg = {
  "db-password-file": {
    type: "string",
    description: "file whose first line is the PostgreSQL password (else the URL's, else $PGPASSWORD)",
    valueHint: "FILE",
  },
} as const;

export function resolveDbPassword(args: { "db-password-file"?: unknown }): Sensitive<string> | null {
  const file = args["db-password-file"];
  if (typeof file !== "string" || file === "") return null;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`cannot read --db-password-file ${file}: ${(error as NodeJS.ErrnoException).code ?? "unreadable"}`);
  }
  const first = text.split(/\r?\n/, 1)[0] ?? "";
  if (first === "") throw new CliError(`--db-password-file ${file}: the first line is empty`);
  return new Sensitive(first);
}
