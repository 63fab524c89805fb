import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectionsCommand } from "../../cli/commands/connections";
import { seedCommand } from "../../cli/commands/seed";
import { createEstSimulator, EST_SIM_ACCOUNT } from "../../src/bank/est/sim/simulator";
import { TEST_SEED } from "../support/fixtures";
import { runError, runHuman, runJson, seededDb } from "./cli-run";

// Product 17: the seed file's `est` object (validated, with its path; secrets never printed) and
// `kasa connections list|check`.

const SECRET_PASSWORD = "Pw-topsecret-4711";
const SECRET_KEY = "SK-topsecret-0815";

const est = (over: Record<string, unknown> = {}) => ({
  model: "3d",
  gateUrl: "https://bank.example/fim/est3Dgate",
  apiUrl: "https://bank.example/fim/api",
  clientId: "700655000300",
  apiUser: "KASAAPI",
  apiPassword: SECRET_PASSWORD,
  storeKey: SECRET_KEY,
  ...over,
});

const withEst = (estObject: unknown, bank = "est") => ({
  psps: TEST_SEED.psps,
  connections: [{ id: "vpos-est", psp: "psp-1", bank, est: estObject }],
});

async function seedFile(db: string, content: unknown): Promise<void> {
  await runJson(seedCommand, [await writeSeed(content), "--db", db]);
}

const REQUIRED = ["model", "gateUrl", "apiUrl", "clientId", "apiUser", "apiPassword", "storeKey"] as const;

describe("product 17: the seed file's est object", () => {
  it.each(REQUIRED.map((f) => [f]))("a missing %s is refused with its path", async (field) => {
    const db = await seededDb();
    const { [field]: _dropped, ...rest } = est();
    const err = await runError(seedCommand, [await writeSeed(withEst(rest)), "--db", db]);
    expect(err.message).toContain(`connections[0].est.${field}`);
  });

  it.each([
    ["gateUrl", "http://bank.example/fim/est3Dgate"],
    ["apiUrl", "ftp://bank.example/fim/api"],
    ["apiUrl", "https://user:pw@bank.example/fim/api"],
    ["gateUrl", "not a url"],
  ])("%s %s is refused (https, or http on loopback only)", async (field, url) => {
    const db = await seededDb();
    const err = await runError(seedCommand, [await writeSeed(withEst(est({ [field]: url }))), "--db", db]);
    expect(err.message).toContain(`connections[0].est.${field}`);
  });

  it.each([["http://127.0.0.1:8080/fim/api"], ["http://localhost/fim/api"], ["http://[::1]:9/fim/api"]])(
    "%s is accepted (loopback)",
    async (url) => {
      const db = await seededDb();
      await seedFile(db, withEst(est({ apiUrl: url })));
      expect(
        (await runJson<Array<{ connectionId: string }>>(connectionsCommand, ["list", "--db", db])).map((c) => c.connectionId),
      ).toContain("vpos-est");
    },
  );

  it("bank est without its est object, and an est object on a sim connection, are refused", async () => {
    const db = await seededDb();
    expect((await runError(seedCommand, [await writeSeed(withEst(null)), "--db", db])).message).toContain("connections[0].est");
    expect((await runError(seedCommand, [await writeSeed(withEst(est(), "sim")), "--db", db])).message).toContain("connections[0].est");
  });

  it("an invalid secret is named by its path, never shown", async () => {
    const db = await seededDb();
    const err = await runError(seedCommand, [await writeSeed(withEst(est({ storeKey: `has space ${SECRET_KEY}` }))), "--db", db]);
    expect(err.message).toContain("connections[0].est.storeKey");
    expect(err.message).not.toContain(SECRET_KEY);
  });

  it("kasa connections list shows the settings with both secrets [redacted], in JSON and in text", async () => {
    const db = await seededDb();
    await seedFile(db, withEst(est()));
    const json = JSON.stringify(await runJson(connectionsCommand, ["list", "--db", db]));
    const text = await runHuman(connectionsCommand, ["list", "--db", db]);
    for (const out of [json, text]) {
      expect(out).not.toContain(SECRET_PASSWORD);
      expect(out).not.toContain(SECRET_KEY);
    }
    expect(json).toContain('"apiPassword":"[redacted]"');
    expect(json).toContain('"storeKey":"[redacted]"');
  });
});

async function writeSeed(content: unknown): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), "kasa-est-")), "seed.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

/** The EST simulator's API on a loopback port, as a bank would serve it. */
async function simulatorServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const sim = createEstSimulator({
    accounts: [EST_SIM_ACCOUNT],
    nowMs: () => Date.parse("2026-03-02T09:00:00Z"),
    nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
  });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const answer = await sim.api(new Request("http://127.0.0.1/sim-est/fim/api", { method: "POST", body: Buffer.concat(chunks) }));
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/sim-est/fim/api`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("product 17: kasa connections check", () => {
  it("answers whether the bank answered, accepted the credentials, and the latency", async () => {
    const bank = await simulatorServer();
    try {
      const db = await seededDb();
      await seedFile(db, {
        psps: TEST_SEED.psps,
        connections: [
          { id: "good", psp: "psp-1", bank: "est", est: est({ apiUrl: bank.url, apiPassword: EST_SIM_ACCOUNT.apiPassword }) },
          { id: "bad-password", psp: "psp-1", bank: "est", est: est({ apiUrl: bank.url, apiPassword: "wrong-password" }) },
        ],
      });
      const good = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "good", "--db", db]);
      expect(good).toMatchObject({ connectionId: "good", bank: "est", answered: true, credentialsAccepted: true });
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
    await seedFile(db, withEst(est({ apiUrl: "http://127.0.0.1:9/fim/api", timeoutMs: 500 })));
    const out = await runJson<Record<string, unknown>>(connectionsCommand, ["check", "vpos-est", "--db", db]);
    expect(out).toMatchObject({ answered: false, credentialsAccepted: null });
    expect(process.exitCode).toBe(1);
    process.exitCode = 0;
  });

  it("an unknown connection is a one-line error", async () => {
    expect(await runError(connectionsCommand, ["check", "nope", "--db", await seededDb()])).toEqual({
      message: "unknown connection nope",
      exitCode: 1,
    });
  });
});
