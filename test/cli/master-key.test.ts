import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectionsCommand } from "../../cli/commands/connections";
import { partnersCommand } from "../../cli/commands/partners";
import { rotateMasterKeyCommand } from "../../cli/commands/rotate-master-key";
import { seedCommand } from "../../cli/commands/seed";
import { refuseClearBankSecrets } from "../../cli/server";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { newMasterKeyText, parseMasterKey } from "../../src/store/secret-box";
import { TEST_SEED } from "../support/fixtures";
import { runError, runJson } from "./cli-run";

// Product 19 / issue 20: webhook secrets and bank credentials encrypted at rest (AES-256-GCM)
// under a master key; a wrong or missing key refused with one line and nothing changed;
// `kasa rotate-master-key`; `serve` refuses an est connection without a key.

const WEBHOOK_SECRET = "whsec_at_rest_0123456789";
const API_PASSWORD = "Pw-at-rest-4711";
const STORE_KEY = "SK-at-rest-0815";

const SEED = {
  ...TEST_SEED,
  partners: [{ ...TEST_SEED.partners![0]!, webhook: { url: "https://hooks.shop.example/k", secret: WEBHOOK_SECRET } }],
  terminals: [],
  connections: [
    ...(TEST_SEED.connections ?? []),
    {
      id: "vpos-est",
      psp: "psp-1",
      bank: "est",
      est: {
        model: "3d",
        gateUrl: "https://bank.example/fim/est3Dgate",
        apiUrl: "https://bank.example/fim/api",
        clientId: "100100000",
        apiUser: "KASAAPI",
        apiPassword: API_PASSWORD,
        storeKey: STORE_KEY,
      },
    },
  ],
};

function files() {
  const dir = mkdtempSync(join(tmpdir(), "kasa-mk-"));
  const key = join(dir, "master.key");
  const key2 = join(dir, "master-2.key");
  writeFileSync(key, newMasterKeyText(), { mode: 0o600 });
  writeFileSync(key2, newMasterKeyText(), { mode: 0o600 });
  const seed = join(dir, "seed.json");
  writeFileSync(seed, JSON.stringify(SEED));
  return { db: join(dir, "kasa.db"), key, key2, seed };
}

/** The database file and its WAL as bytes: no secret may be there in clear. */
function clearSecretsIn(db: string): string[] {
  const bytes = [db, `${db}-wal`]
    .filter(existsSync)
    .map((f) => readFileSync(f).toString("latin1"))
    .join("");
  return [WEBHOOK_SECRET, API_PASSWORD, STORE_KEY].filter((s) => bytes.includes(s));
}

describe("product 19: secrets at rest", () => {
  it("seeded with a master key: no secret in the database file or its WAL; with the key every one reads back", async () => {
    const f = files();
    await runJson(seedCommand, [f.seed, "--db", f.db, "--master-key-file", f.key]);
    expect(clearSecretsIn(f.db)).toEqual([]);
    const store = await openStore(f.db, { masterKey: parseMasterKey(readFileSync(f.key, "utf8")) });
    expect((await store.q.partners.get("ptn_test"))?.webhookSecret).toBe(WEBHOOK_SECRET);
    expect(JSON.parse((await store.q.catalog.connection("vpos-est"))?.bankConfig ?? "{}")).toMatchObject({
      apiPassword: API_PASSWORD,
      storeKey: STORE_KEY,
    });
    await store.close();
  });

  it("a database seeded in clear is sealed the first time it is opened with a key", async () => {
    const f = files();
    await runJson(seedCommand, [f.seed, "--db", f.db]);
    expect(clearSecretsIn(f.db).length).toBeGreaterThan(0);
    await runJson(connectionsCommand, ["list", "--db", f.db, "--master-key-file", f.key]);
    expect(clearSecretsIn(f.db)).toEqual([]);
  });

  it("without the key: reading a secret is one line, exit 1; writing one is refused and changes nothing", async () => {
    const f = files();
    await runJson(seedCommand, [f.seed, "--db", f.db, "--master-key-file", f.key]);
    expect((await runError(connectionsCommand, ["list", "--db", f.db])).message).toMatch(/encrypted secrets: give the master key/);
    const before = readFileSync(f.db);
    const err = await runError(seedCommand, [f.seed, "--db", f.db]);
    expect(err).toMatchObject({ exitCode: 1 });
    expect(err.message).toMatch(/master key/);
    expect(clearSecretsIn(f.db)).toEqual([]);
    expect(readFileSync(f.db).equals(before)).toBe(true);
  });

  it("a wrong key is refused with one line, before anything is read or written", async () => {
    const f = files();
    await runJson(seedCommand, [f.seed, "--db", f.db, "--master-key-file", f.key]);
    const err = await runError(partnersCommand, ["list", "--db", f.db, "--master-key-file", f.key2]);
    expect(err.message).toMatch(/^wrong master key/);
    const bad = join(f.key, "..", "bad.key");
    writeFileSync(bad, "not a key\n");
    expect((await runError(partnersCommand, ["list", "--db", f.db, "--master-key-file", bad])).message).toMatch(/32 bytes/);
  });

  it("rotate-master-key re-seals every secret under the new key; the old key no longer opens the database", async () => {
    const f = files();
    await runJson(seedCommand, [f.seed, "--db", f.db, "--master-key-file", f.key]);
    const out = await runJson<{ rotated: number }>(rotateMasterKeyCommand, [
      "--new-key-file",
      f.key2,
      "--master-key-file",
      f.key,
      "--db",
      f.db,
    ]);
    expect(out.rotated).toBe(2);
    expect((await runError(partnersCommand, ["list", "--db", f.db, "--master-key-file", f.key])).message).toMatch(/^wrong master key/);
    const store = await openStore(f.db, { masterKey: parseMasterKey(readFileSync(f.key2, "utf8")) });
    expect((await store.q.partners.get("ptn_test"))?.webhookSecret).toBe(WEBHOOK_SECRET);
    await store.close();
    expect(clearSecretsIn(f.db)).toEqual([]);
  });

  it("the sandbox's own key file beside the database is used by every command; rotation replaces it", async () => {
    const f = files();
    writeFileSync(`${f.db}.key`, readFileSync(f.key), { mode: 0o600 });
    await runJson(seedCommand, [f.seed, "--db", f.db]);
    expect(clearSecretsIn(f.db)).toEqual([]);
    await runJson(rotateMasterKeyCommand, ["--new-key-file", f.key2, "--db", f.db]);
    expect(readFileSync(`${f.db}.key`, "utf8")).toBe(readFileSync(f.key2, "utf8"));
    expect(statSync(`${f.db}.key`).mode & 0o777).toBe(0o600);
    expect(await runJson(partnersCommand, ["list", "--db", f.db])).toHaveLength(1);
  });

  it("serve refuses to start with an est connection and no master key", async () => {
    const f = files();
    await runJson(seedCommand, [f.seed, "--db", f.db]);
    const store = await openStore(f.db);
    await expect(refuseClearBankSecrets(store, null)).rejects.toThrow(/connection vpos-est uses a real bank \(est\)/);
    await expect(refuseClearBankSecrets(store, parseMasterKey(readFileSync(f.key, "utf8")))).resolves.toBeUndefined();
    await store.close();
  });
});
