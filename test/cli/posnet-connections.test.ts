import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectionsCommand } from "../../cli/commands/connections";
import { seedCommand } from "../../cli/commands/seed";
import { refuseClearBankSecrets } from "../../cli/server";
import { POSNET_SIM_ACCOUNT } from "../../src/bank/posnet/sim/accounts";
import { createPosnetSimulator } from "../../src/bank/posnet/sim/routes";
import { newMasterKeyText, parseMasterKey } from "../../src/store/secret-box";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store";
import { TEST_SEED } from "../support/fixtures";
import { runError, runHuman, runJson, seededDb } from "./cli-run";

// Issue 33: the seed file's `posnet` object (validated, with its path; encKey never printed) and
// `kasa connections list|check` against the Posnet simulator.

const SECRET_KEY = "99,88,77,66,55,44,33,22-topsecret";

const posnet = (over: Record<string, unknown> = {}) => ({
  apiUrl: "https://setmpos.ykb.com/PosnetWebService/XML",
  gateUrl: "https://setmpos.ykb.com/3DSWebService/YKBPaymentService",
  merchantId: "6706598320",
  terminalId: "67005551",
  posnetId: "27426",
  encKey: SECRET_KEY,
  lang: "tr",
  timeoutMs: 30000,
  ...over,
});

const withPosnet = (object: unknown, bank = "posnet") => ({
  psps: TEST_SEED.psps,
  connections: [{ id: "vpos-ykb", psp: "psp-1", bank, active: true, posnet: object }],
});

async function writeSeed(content: unknown): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), "kasa-posnet-")), "seed.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const seedFile = async (db: string, content: unknown) => runJson(seedCommand, [await writeSeed(content), "--db", db]);

describe("issue 33: the seed file's posnet object", () => {
  const REQUIRED = ["apiUrl", "gateUrl", "merchantId", "terminalId", "posnetId", "encKey"] as const;
  it.each(REQUIRED.map((f) => [f]))("a missing %s is refused with its path", async (field) => {
    const db = await seededDb();
    const { [field]: _dropped, ...rest } = posnet();
    expect((await runError(seedCommand, [await writeSeed(withPosnet(rest)), "--db", db])).message).toContain(
      `connections[0].posnet.${field}`,
    );
  });

  it.each([
    ["apiUrl", "http://setmpos.ykb.com/PosnetWebService/XML"],
    ["merchantId", "67065983AB"],
    ["lang", "de"],
    ["timeoutMs", 10],
    ["model", "3d_pay"],
  ])("%s %s is refused", async (field, value) => {
    const db = await seededDb();
    expect((await runError(seedCommand, [await writeSeed(withPosnet(posnet({ [field]: value }))), "--db", db])).message).toContain(
      `connections[0].posnet`,
    );
  });

  it("bank posnet without its posnet object, and a posnet object on a sim connection, are refused; a bad encKey is never shown", async () => {
    const db = await seededDb();
    expect((await runError(seedCommand, [await writeSeed(withPosnet(null)), "--db", db])).message).toContain("connections[0].posnet");
    expect((await runError(seedCommand, [await writeSeed(withPosnet(posnet(), "sim")), "--db", db])).message).toContain(
      "connections[0].posnet",
    );
    const err = await runError(seedCommand, [await writeSeed(withPosnet(posnet({ encKey: `has space ${SECRET_KEY}` }))), "--db", db]);
    expect(err.message).toContain("connections[0].posnet.encKey");
    expect(err.message).not.toContain(SECRET_KEY);
  });

  it("kasa connections list shows the settings with encKey [redacted], in JSON and in text", async () => {
    const db = await seededDb();
    await seedFile(db, withPosnet(posnet()));
    const json = JSON.stringify(await runJson(connectionsCommand, ["list", "--db", db]));
    const text = await runHuman(connectionsCommand, ["list", "--db", db]);
    for (const out of [json, text]) expect(out).not.toContain(SECRET_KEY);
    expect(json).toContain('"encKey":"[redacted]"');
  });
});

describe("issue 33: encKey at rest", () => {
  it("seeded with a master key: encKey is not in the database file or its WAL and reads back; serve refuses without a key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kasa-posnet-mk-"));
    const key = join(dir, "master.key");
    writeFileSync(key, newMasterKeyText(), { mode: 0o600 });
    const db = join(dir, "kasa.db");
    await runJson(seedCommand, [await writeSeed(withPosnet(posnet())), "--db", db, "--master-key-file", key]);
    const bytes = [db, `${db}-wal`]
      .filter(existsSync)
      .map((f) => readFileSync(f).toString("latin1"))
      .join("");
    expect(bytes.includes(SECRET_KEY)).toBe(false);
    const masterKey = parseMasterKey(readFileSync(key, "utf8"));
    const store = await openSqliteStore(db, { masterKey });
    expect(JSON.parse((await store.q.catalog.connection("vpos-ykb"))?.bankConfig ?? "{}")).toMatchObject({ encKey: SECRET_KEY });
    await store.close();

    const clear = join(dir, "clear.db");
    await runJson(seedCommand, [await writeSeed(withPosnet(posnet())), "--db", clear]);
    const clearStore = await openSqliteStore(clear);
    await expect(refuseClearBankSecrets(clearStore, null)).rejects.toThrow(/connection vpos-ykb uses a real bank \(posnet\)/);
    await clearStore.close();
  });
});

/** The simulator's API on a loopback port, as the bank would serve it. */
async function simulatorServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sim = createPosnetSimulator({
    accounts: [POSNET_SIM_ACCOUNT],
    nowMs: () => Date.parse("2026-03-02T09:00:00Z"),
    nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
  });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const answer = await sim.api(
        new Request("http://127.0.0.1/sim-posnet/PosnetWebService/XML", { method: "POST", body: Buffer.concat(chunks) }),
      );
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sim-posnet/PosnetWebService/XML`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("issue 33: kasa connections check on a Posnet connection", () => {
  it("agreement for a fresh order: answered, credentials accepted (0123 not found); an unknown terminal is 0148", async () => {
    const bank = await simulatorServer();
    try {
      const db = await seededDb();
      const sim = {
        apiUrl: bank.url,
        merchantId: POSNET_SIM_ACCOUNT.merchantId,
        terminalId: POSNET_SIM_ACCOUNT.terminalId,
        encKey: POSNET_SIM_ACCOUNT.encKey,
      };
      await seedFile(db, {
        psps: TEST_SEED.psps,
        connections: [
          { id: "good", psp: "psp-1", bank: "posnet", posnet: posnet(sim) },
          { id: "bad-tid", psp: "psp-1", bank: "posnet", posnet: posnet({ ...sim, terminalId: "67000000" }) },
        ],
      });
      const good = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "good", "--db", db]);
      expect(good).toMatchObject({ connectionId: "good", bank: "posnet", answered: true, credentialsAccepted: true });
      const bad = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "bad-tid", "--db", db]);
      expect(bad).toMatchObject({ answered: true, credentialsAccepted: false });
      expect(String(bad.message)).toContain("0148");
      expect(process.exitCode).toBe(1);
      process.exitCode = 0;
    } finally {
      await bank.close();
    }
  });
});
