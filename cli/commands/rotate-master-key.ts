import { renameSync, writeFileSync } from "node:fs";
import { defineCommand } from "citty";
import { keyIdOf, parseMasterKey } from "../../src/store/secret-box";
import { isPostgresUrl } from "../../src/store/open";
import { CliError } from "../cli-error";
import { commonArgs, openStoreOrExplain, output, resolveDbPath } from "../context";
import { MASTER_KEY_ENV, resolveMasterKey, sandboxKeyFile } from "../master-key";
import { existsSync, readFileSync } from "node:fs";

// docs/operating.md: `kasa rotate-master-key` re-seals every secret (partners' webhook secrets, bank
// connections' settings) under a new master key, in one transaction. The current key comes from
// where every command takes it; when that is the sandbox's own DB.key, the file is replaced too.

export const rotateMasterKeyCommand = defineCommand({
  meta: {
    name: "rotate-master-key",
    description:
      "Re-encrypt every secret at rest under a new master key, in one transaction.\n\nExample: kasa rotate-master-key --new-key-file /etc/kasa/master-2.key --master-key-file /etc/kasa/master-1.key --db /var/lib/kasa/kasa.db",
  },
  args: {
    "new-key-file": {
      type: "string",
      description: "file holding the new key (64 hex digits or base64 of 32 bytes)",
      valueHint: "FILE",
      required: true,
    },
    ...commonArgs,
  },
  run: async ({ args }) => {
    const db = resolveDbPath(args.db);
    if (!isPostgresUrl(db) && !existsSync(db)) throw new CliError(`no database at ${db}`);
    let next: Buffer;
    try {
      next = parseMasterKey(readFileSync(args["new-key-file"], "utf8"));
    } catch (error) {
      throw new CliError(`--new-key-file ${args["new-key-file"]}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const current = resolveMasterKey(args, db);
    if (current !== null && keyIdOf(current) === keyIdOf(next)) throw new CliError("the new key is the current key");
    const store = await openStoreOrExplain(db, current);
    let count: number;
    try {
      count = await store.rotateMasterKey(next);
    } finally {
      await store.close();
    }
    const fromSandboxFile =
      !isPostgresUrl(db) && !args["master-key-file"] && !process.env[MASTER_KEY_ENV] && existsSync(sandboxKeyFile(db));
    if (fromSandboxFile) {
      const tmp = `${sandboxKeyFile(db)}.new`;
      writeFileSync(tmp, `${next.toString("hex")}\n`, { mode: 0o600 });
      renameSync(tmp, sandboxKeyFile(db));
    }
    output(args, { rotated: count, keyId: keyIdOf(next), keyFileReplaced: fromSandboxFile }, () =>
      [
        `${count} secrets re-encrypted under key ${keyIdOf(next)}.`,
        fromSandboxFile
          ? `${sandboxKeyFile(db)} now holds the new key.`
          : "Start kasa with the new key (--master-key-file or $KASA_MASTER_KEY).",
      ].join("\n"),
    );
  },
});
