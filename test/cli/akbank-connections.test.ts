import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectionsCommand } from "../../cli/commands/connections";
import { seedCommand } from "../../cli/commands/seed";
import { createAkbankSimulator } from "../../src/bank/akbank/sim/routes";
import { AKBANK_SIM_ACCOUNT } from "../../src/bank/akbank/sim/settings";
import { TEST_SEED } from "../support/fixtures";
import { runError, runHuman, runJson, seededDb } from "./cli-run";

// Issue 34: the seed file's `akbank` object (validated, with its path; the secret key never
// printed) and `kasa connections list|check` for an AkbankPos connection.

const SECRET_KEY = "SK-topsecret-0815-akbank";

const akbank = (over: Record<string, unknown> = {}) => ({
  model: "3d",
  gateUrl: "https://virtualpospaymentgatewaypre.akbank.com/securepay",
  apiUrl: "https://apipre.akbank.com/api/v1/payment/virtualpos",
  merchantSafeId: AKBANK_SIM_ACCOUNT.merchantSafeId,
  terminalSafeId: AKBANK_SIM_ACCOUNT.terminalSafeId,
  secretKey: SECRET_KEY,
  subMerchantId: null,
  lang: "TR",
  timeoutMs: 30000,
  ...over,
});

const withAkbank = (object: unknown, bank = "akbank") => ({
  psps: TEST_SEED.psps,
  connections: [{ id: "vpos-akbank", psp: "psp-1", bank, akbank: object }],
});

async function writeSeed(content: unknown): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), "kasa-akbank-")), "seed.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}
const seedFile = async (db: string, content: unknown) => runJson(seedCommand, [await writeSeed(content), "--db", db]);

describe("issue 34: the seed file's akbank object", () => {
  it.each(["model", "gateUrl", "apiUrl", "merchantSafeId", "terminalSafeId", "secretKey"].map((f) => [f]))(
    "a missing %s is refused with its path",
    async (field) => {
      const db = await seededDb();
      const { [field]: _dropped, ...rest } = akbank() as Record<string, unknown>;
      expect((await runError(seedCommand, [await writeSeed(withAkbank(rest)), "--db", db])).message).toContain(
        `connections[0].akbank.${field}`,
      );
    },
  );

  it.each([
    ["model", "3d_host"],
    ["lang", "tr"],
    ["gateUrl", "http://bank.example/securepay"],
    ["apiUrl", "https://user:pw@bank.example/api"],
    ["timeoutMs", 50],
  ])("%s %s is refused", async (field, value) => {
    const db = await seededDb();
    expect((await runError(seedCommand, [await writeSeed(withAkbank(akbank({ [field]: value }))), "--db", db])).message).toContain(
      `connections[0].akbank.${field}`,
    );
  });

  it("bank akbank without its object, and the object on a sim connection, are refused", async () => {
    const db = await seededDb();
    expect((await runError(seedCommand, [await writeSeed(withAkbank(null)), "--db", db])).message).toContain("connections[0].akbank");
    expect((await runError(seedCommand, [await writeSeed(withAkbank(akbank(), "sim")), "--db", db])).message).toContain(
      "connections[0].akbank",
    );
  });

  it("an invalid secret is named by its path, never shown; list shows it [redacted]", async () => {
    const db = await seededDb();
    const err = await runError(seedCommand, [await writeSeed(withAkbank(akbank({ secretKey: `has space ${SECRET_KEY}` }))), "--db", db]);
    expect(err.message).toContain("connections[0].akbank.secretKey");
    expect(err.message).not.toContain(SECRET_KEY);
    await seedFile(db, withAkbank(akbank({ model: "3d_pay" })));
    const json = JSON.stringify(await runJson(connectionsCommand, ["list", "--db", db]));
    const text = await runHuman(connectionsCommand, ["list", "--db", db]);
    for (const out of [json, text]) expect(out).not.toContain(SECRET_KEY);
    expect(json).toContain('"secretKey":"[redacted]"');
    expect(json).toContain("3d_pay");
  });
});

/** The simulator's API on a loopback port, as the bank would serve it. */
async function simulatorServer(): Promise<{ apiUrl: string; close: () => Promise<void> }> {
  const sim = createAkbankSimulator({ nowMs: () => Date.parse("2026-03-02T09:00:00Z"), nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U" });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const headers = { "auth-hash": String(req.headers["auth-hash"] ?? "") };
      const answer = await sim.api(new Request("http://127.0.0.1/process", { method: "POST", headers, body: Buffer.concat(chunks) }));
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api/v1/payment/virtualpos`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("issue 34: kasa connections check on AkbankPos", () => {
  it("1010 for a fresh order: VPS-1123 is accepted credentials; a wrong secret key is refused (401)", async () => {
    const bank = await simulatorServer();
    try {
      const db = await seededDb();
      await seedFile(db, {
        psps: TEST_SEED.psps,
        connections: [
          { id: "good", psp: "psp-1", bank: "akbank", akbank: akbank({ apiUrl: bank.apiUrl, secretKey: AKBANK_SIM_ACCOUNT.secretKey }) },
          { id: "bad-key", psp: "psp-1", bank: "akbank", akbank: akbank({ apiUrl: bank.apiUrl, secretKey: "wrong-key" }) },
        ],
      });
      const good = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "good", "--db", db]);
      expect(good).toMatchObject({ connectionId: "good", bank: "akbank", answered: true, credentialsAccepted: true });
      expect(String(good.message)).toContain("VPS-1123");
      const bad = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "bad-key", "--db", db]);
      expect(bad).toMatchObject({ answered: true, credentialsAccepted: false });
      expect(process.exitCode).toBe(1);
      process.exitCode = 0;
      expect(JSON.stringify(bad)).not.toContain("wrong-key");
    } finally {
      await bank.close();
    }
  });

  it("a bank that does not answer: answered false, exit 1", async () => {
    const db = await seededDb();
    await seedFile(db, withAkbank(akbank({ apiUrl: "http://127.0.0.1:9/api", timeoutMs: 500 })));
    expect(await runJson<Record<string, unknown>>(connectionsCommand, ["check", "vpos-akbank", "--db", db])).toMatchObject({
      answered: false,
      credentialsAccepted: null,
    });
    expect(process.exitCode).toBe(1);
    process.exitCode = 0;
  });
});
