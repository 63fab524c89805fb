import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keysCommand } from "../../cli/commands/keys";
import { refuseDemoKey, runServer } from "../../cli/server";
import { DEMO_BINS } from "../../src/bank/test-cards";
import { DEMO_API_KEY, demoSeed } from "../../src/domain/partners/demo-seed";
import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import { hashApiKey } from "../../src/ids";
import { Sensitive } from "../../src/sensitive";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { runJson } from "./cli-run";

// Issue 15 item 11, product 23: a database that began as a sandbox carries the published demo key;
// `serve` must not quietly accept it in production.

async function sandboxDb(): Promise<{ db: string; keyId: string }> {
  const db = join(mkdtempSync(join(tmpdir(), "kasa-demo-key-")), "kasa.db");
  const store = await openStore(db);
  let n = 0;
  await applySeed(
    store,
    parseSeed(
      demoSeed(
        DEMO_BINS.map((b) => ({ ...b })),
        "http://127.0.0.1:1",
      ),
    ),
    0,
    () => `key_demo${++n}`,
  );
  const keyId = (await store.q.apiKeys.byHash(hashApiKey(new Sensitive(DEMO_API_KEY))))!.id;
  await store.close();
  return { db, keyId };
}

describe("product 23: serve refuses the published demo key", () => {
  it("kasa serve on a sandbox database stops with a one-line error naming the fix", async () => {
    const { db, keyId } = await sandboxDb();
    const run = runServer({ mode: "serve", db, port: 0, host: "127.0.0.1", trustProxy: false, allowPrivateWebhooks: false });
    await expect(run).rejects.toThrow(
      new RegExp(
        `^the published sandbox demo key \\(${keyId}\\) is active on .*: revoke it \\(kasa keys revoke ${keyId} --db .*\\) or start with --allow-demo-key$`,
      ),
    );
  });

  it.each([
    ["the demo key revoked", true, false, "serve"],
    ["--allow-demo-key", false, true, "serve"],
    ["sandbox mode", false, false, "sandbox"],
  ] as const)("passes with %s", async (_n, revoke, allowDemoKey, mode) => {
    const { db, keyId } = await sandboxDb();
    if (revoke) await runJson(keysCommand, ["revoke", keyId, "--db", db]);
    const store = await openStore(db);
    await expect(refuseDemoKey(store, { mode, db, allowDemoKey })).resolves.toBeUndefined();
    await store.close();
  });
});
