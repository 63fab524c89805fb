import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { isPostgresUrl } from "../src/store/open";
import { MasterKeyError, newMasterKeyText, parseMasterKey } from "../src/store/secret-box";
import { CliError } from "./cli-error";

// docs/operating.md: where the master key comes from, in this order: `--master-key-file FILE`, the
// environment variable KASA_MASTER_KEY, or the sandbox's own key file beside its database
// (`<db>.key`). Never a command-line value (docs/decisions.md, Hardening: secrets are not arguments).

export const MASTER_KEY_ENV = "KASA_MASTER_KEY";

export const masterKeyArg = {
  "master-key-file": {
    type: "string",
    description: `file holding the master key that encrypts secrets at rest (else $${MASTER_KEY_ENV}, else DB.key beside the database)`,
    valueHint: "FILE",
  },
} as const;

export const sandboxKeyFile = (db: string): string => `${db}.key`;

/**
 * Only a database file has a "beside": an in-memory one and a PostgreSQL URL (docs/postgresql.md) take
 * their key from --master-key-file or the environment, and a sandbox on PostgreSQL without one
 * keeps its demo secrets in clear.
 */
const hasKeyFileBeside = (db: string): boolean => db !== ":memory:" && !isPostgresUrl(db);

function read(file: string, what: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError(`${what}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  return parse(text, `${what} ${file}`);
}

function parse(text: string, where: string): Buffer {
  try {
    return parseMasterKey(text);
  } catch (error) {
    if (error instanceof MasterKeyError) throw new CliError(`${where}: ${error.message}`);
    throw error;
  }
}

/** The key for a command on `db`, or null (secrets stay in clear; a sealed database refuses). */
export function resolveMasterKey(args: { "master-key-file"?: unknown }, db: string): Buffer | null {
  const file = args["master-key-file"];
  if (typeof file === "string" && file !== "") return read(file, "--master-key-file");
  const env = process.env[MASTER_KEY_ENV];
  if (env !== undefined && env !== "") return parse(env, `$${MASTER_KEY_ENV}`);
  if (hasKeyFileBeside(db) && existsSync(sandboxKeyFile(db))) return read(sandboxKeyFile(db), "the key file");
  return null;
}

/** `kasa sandbox`: its key as above, or a new one written beside the database (0600). */
export function sandboxMasterKey(args: { "master-key-file"?: unknown }, db: string): Buffer | null {
  const key = resolveMasterKey(args, db);
  if (key !== null || !hasKeyFileBeside(db)) return key;
  const text = newMasterKeyText();
  writeFileSync(sandboxKeyFile(db), text, { mode: 0o600, flag: "wx" });
  return parseMasterKey(text);
}
