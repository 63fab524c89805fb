import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectionsCommand } from "../../cli/commands/connections";
import { seedCommand } from "../../cli/commands/seed";
import { GARANTI_SIM_ACCOUNT } from "../../src/bank/garanti/sim/accounts";
import { createGarantiSimulator } from "../../src/bank/garanti/sim/simulator";
import { TEST_SEED } from "../support/fixtures";
import { runError, runJson, seededDb } from "./cli-run";

// Issue 31: the seed file's `garanti` object (validated with its path; the three secrets never
// printed) and `kasa connections list|check` for a Garanti connection.

const PROV = "Prov-topsecret-4711";
const RFN = "Rfn-topsecret-0815";
const KEY = "SK-topsecret-4001";

const garanti = (over: Record<string, unknown> = {}) => ({
  model: "3d",
  gateUrl: "https://sanalposprov.garanti.com.tr/servlet/gt3dengine",
  apiUrl: "https://sanalposprov.garanti.com.tr/VPServlet",
  merchantId: "7000679",
  terminalId: "30691298",
  provUserId: "PROVAUT",
  provPassword: PROV,
  refundUserId: "PROVRFN",
  refundPassword: RFN,
  storeKey: KEY,
  ...over,
});

const withGaranti = (object: unknown, bank = "garanti") => ({
  psps: TEST_SEED.psps,
  connections: [{ id: "vpos-garanti-1", psp: "psp-1", bank, garanti: object }],
});

async function writeSeed(content: unknown): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), "kasa-garanti-")), "seed.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

const seedFile = async (db: string, content: unknown) => runJson(seedCommand, [await writeSeed(content), "--db", db]);

const REQUIRED = [
  "model",
  "gateUrl",
  "apiUrl",
  "merchantId",
  "terminalId",
  "provUserId",
  "provPassword",
  "refundUserId",
  "refundPassword",
  "storeKey",
] as const;

describe("issue 31: the seed file's garanti object", () => {
  it("every required field missing, and bad values, are refused with their path", async () => {
    const db = await seededDb();
    const refused = async (object: unknown) => (await runError(seedCommand, [await writeSeed(withGaranti(object)), "--db", db])).message;
    for (const field of REQUIRED) {
      const { [field]: _dropped, ...rest } = garanti();
      expect(await refused(rest)).toContain(`connections[0].garanti.${field}`);
    }
    expect(await refused(garanti({ terminalId: "3069129800" }))).toContain("connections[0].garanti.terminalId");
    expect(await refused(garanti({ merchantId: "70006x9" }))).toContain("connections[0].garanti.merchantId");
    expect(await refused(garanti({ model: "3d_oos_pay" }))).toContain("connections[0].garanti.model");
    expect(await refused(garanti({ mode: "test" }))).toContain("connections[0].garanti.mode");
    expect(await refused(garanti({ gateUrl: "http://bank.example/servlet/gt3dengine" }))).toContain("connections[0].garanti.gateUrl");
    expect(await refused(garanti({ timeoutMs: 0 }))).toContain("connections[0].garanti.timeoutMs");
    expect((await runError(seedCommand, [await writeSeed(withGaranti(null)), "--db", db])).message).toContain("connections[0].garanti");
    expect((await runError(seedCommand, [await writeSeed(withGaranti(garanti(), "sim")), "--db", db])).message).toContain(
      "connections[0].garanti",
    );
  });

  it("an invalid secret is named by its path, never shown", async () => {
    const db = await seededDb();
    const err = await runError(seedCommand, [await writeSeed(withGaranti(garanti({ refundPassword: `has space ${RFN}` }))), "--db", db]);
    expect(err.message).toContain("connections[0].garanti.refundPassword");
    expect(err.message).not.toContain(RFN);
  });

  it("kasa connections list shows the settings with the three secrets [redacted], mode and timeout defaulted", async () => {
    const db = await seededDb();
    await seedFile(db, withGaranti(garanti()));
    const json = JSON.stringify(await runJson(connectionsCommand, ["list", "--db", db]));
    for (const secret of [PROV, RFN, KEY]) expect(json).not.toContain(secret);
    expect(json).toContain('"provPassword":"[redacted]"');
    expect(json).toContain('"refundPassword":"[redacted]"');
    expect(json).toContain('"storeKey":"[redacted]"');
    expect(json).toContain('"mode":"PROD"');
    expect(json).toContain('"timeoutMs":30000');
  });
});

/** The Garanti simulator's VPServlet on a loopback port, as a bank would serve it. */
async function simulatorServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sim = createGarantiSimulator({
    accounts: [GARANTI_SIM_ACCOUNT],
    nowMs: () => Date.parse("2026-03-02T09:00:00Z"),
    nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
  });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const answer = await sim.api(new Request("http://127.0.0.1/sim-garanti/VPServlet", { method: "POST", body: Buffer.concat(chunks) }));
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/sim-garanti/VPServlet`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("issue 31: kasa connections check for a Garanti connection (orderinq)", () => {
  it("answers whether the bank answered, accepted the credentials, and the latency", async () => {
    const bank = await simulatorServer();
    try {
      const db = await seededDb();
      const sim = { ...GARANTI_SIM_ACCOUNT, apiUrl: bank.url };
      await seedFile(db, {
        psps: TEST_SEED.psps,
        connections: [
          { id: "good", psp: "psp-1", bank: "garanti", garanti: garanti(sim) },
          { id: "bad-password", psp: "psp-1", bank: "garanti", garanti: garanti({ ...sim, provPassword: "wrong-password" }) },
        ],
      });
      const good = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "good", "--db", db]);
      expect(good).toMatchObject({ connectionId: "good", bank: "garanti", answered: true, credentialsAccepted: true });
      expect(typeof good.latencyMs).toBe("number");
      const bad = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "bad-password", "--db", db]);
      expect(bad).toMatchObject({ answered: true, credentialsAccepted: false });
      expect(process.exitCode).toBe(1);
      process.exitCode = 0;
      expect(JSON.stringify(bad)).not.toContain("wrong-password");
    } finally {
      await bank.close();
    }
  });

  it("a bank that does not answer: answered false, exit 1", async () => {
    const db = await seededDb();
    await seedFile(db, withGaranti(garanti({ apiUrl: "http://127.0.0.1:9/VPServlet", timeoutMs: 500 })));
    const out = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "vpos-garanti-1", "--db", db]);
    expect(out).toMatchObject({ answered: false, credentialsAccepted: null });
    expect(process.exitCode).toBe(1);
    process.exitCode = 0;
  });
});
