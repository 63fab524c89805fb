import { spawnSync } from "node:child_process";
import { openDb } from "../../src/store/sqlite/db";
import { SCHEMA_VERSION } from "../../src/store/sqlite/migrate";

// A base binary older than this tree may not know everything this tree's bench hands it: a budget
// name added since (its `--limits` file refuses unknown names) or a newer schema version (it
// refuses a database stamped newer than itself). Both are asked of the binary itself, so the
// comparison runs instead of failing: the base gets a limits file with the budgets it lists, and
// its SQLite copy of the seed is stamped with its own schema version. The stamp is only sound while
// the later schema versions only add (new tables, nullable columns), as every change so far has:
// the base then reads and writes the rows it knows and ignores the rest. PostgreSQL copies need no
// stamp: a base applies its own (older, idempotent) schema over the copy's.

export type BinaryFacts = { budgets: string[]; schemaVersion: number };

/** Colours, should the binary print them despite NO_COLOR. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

export function binaryFacts(binary: string): BinaryFacts {
  const env = { ...process.env, NO_COLOR: "1" };
  const help = spawnSync(binary, ["serve", "--help"], { encoding: "utf8", env });
  const text = `${help.stdout}${help.stderr}`.replace(ANSI, "");
  const from = text.indexOf("Rate budgets for --limits FILE");
  const budgets = [...text.slice(from).matchAll(/^([a-z][a-z0-9.]*)\s+\d+ per /gm)].map((m) => m[1]!);
  const version = spawnSync(binary, ["version", "--json"], { encoding: "utf8", env });
  const schemaVersion = Number((JSON.parse(version.stdout) as { schemaVersion?: unknown }).schemaVersion);
  if (from < 0 || budgets.length === 0 || !Number.isSafeInteger(schemaVersion)) {
    throw new Error(`cannot read the budgets or the schema version of ${binary}`);
  }
  return { budgets, schemaVersion };
}

/** Stamps a SQLite copy made by this tree with an older binary's schema version (see above). */
export async function stampSchemaVersion(file: string, version: number): Promise<void> {
  if (version >= SCHEMA_VERSION) return;
  const db = await openDb(file);
  try {
    db.exec(`PRAGMA user_version = ${version}`);
  } finally {
    db.close();
  }
}
