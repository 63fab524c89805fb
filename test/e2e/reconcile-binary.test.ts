import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EST_SIM_ACCOUNT } from "../../src/bank/est/sim/accounts";
import { writeXml } from "../../src/bank/est/xml";
import type { RunJson } from "../../src/domain/reconciliation/view";
import { freePort } from "../support/free-port";
import { type SandboxBinary, startSandboxBinary } from "../support/sandbox-binary";

// Reconciliation (docs/reconciliation.md) through the compiled binary's sandbox: a payment captured on the demo EST terminal
// T-3001, then voided by the bank's "operations team" straight at the binary's EST simulator (a
// scripted disagreement); the sandbox clock moves a day on; `kasa reconcile run --json` finds it
// bank_missing, prints the JSON of a run and exits 1; a future --date exits 2.

const APPROVE = "4000001100000009";
const CLASSES = ["matched", "amount_mismatch", "bank_approved", "bank_missing", "unknown", "not_in_kasa", "in_progress"];

let sandbox: SandboxBinary;
afterAll(() => sandbox?.kill());
beforeAll(async () => {
  sandbox = await startSandboxBinary("kasa-reconcile-e2e-");
}, 30_000);

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${sandbox.base}${path}`, {
    method,
    headers: sandbox.headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};
const kasa = (...args: string[]) => spawnSync("dist/kasa", [...args, "--db", sandbox.db], { encoding: "utf8", timeout: 20_000 });

describe("product 26 through the binary: kasa reconcile run", () => {
  it("the bank voided a capture kasa shows captured: bank_missing, the JSON of product 26, exit 1", async () => {
    const created = await api("POST", "/v1/payments", {
      amount: 12_345,
      partnerTxCode: "recon-1",
      terminalId: "T-3001",
      returnUrl: "https://shop.example/r",
    });
    expect(created.status).toBe(201);
    const code = created.json.paymentCode as string;
    expect((await api("POST", `/sandbox/payments/${code}/simulate`, { card: APPROVE })).json.outcome).toBe("captured");
    const calls = (await (await fetch(`${sandbox.base}/sim-est/calls`)).json()) as { calls: Array<{ type: string; oid: string }> };
    const oid = calls.calls.find((c) => c.type === "Auth")!.oid;
    // The bank's operations team voids the order behind kasa's back.
    const voided = await fetch(`${sandbox.base}/sim-est/fim/api`, {
      method: "POST",
      headers: { "content-type": "text/xml; charset=ISO-8859-9" },
      body: writeXml("CC5Request", {
        Name: EST_SIM_ACCOUNT.apiUser,
        Password: EST_SIM_ACCOUNT.apiPassword,
        ClientId: EST_SIM_ACCOUNT.clientId,
        Type: "Void",
        OrderId: oid,
      }) as unknown as BodyInit,
    });
    expect(await voided.text()).toContain("<ProcReturnCode>00</ProcReturnCode>");
    expect((await api("POST", "/sandbox/clock", { advanceSeconds: 86_400 })).status).toBe(200);

    const run = kasa("reconcile", "run", "--json");
    expect(run.status, run.stderr).toBe(1);
    const runs = JSON.parse(run.stdout) as RunJson[];
    // Every connection whose bank is not the simulated one (the demo's EST, Garanti, … connections), not vpos-1.
    expect(runs.map((r) => r.connectionId)).toContain("vpos-est");
    expect(runs.map((r) => r.connectionId)).not.toContain("vpos-1");
    for (const other of runs.filter((r) => r.connectionId !== "vpos-est")) expect(other.findings).toEqual([]);
    const est = runs.find((r) => r.connectionId === "vpos-est")!;
    expect(Object.keys(est)).toEqual(["id", "connectionId", "date", "counts", "findings"]);
    expect(est.id).toMatch(/^rec_[0-9a-z]{20}$/);
    expect(est.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(est.counts)).toEqual(CLASSES);
    expect(est.counts).toMatchObject({ bank_missing: 1 });
    expect(est.findings).toEqual([
      {
        class: "bank_missing",
        paymentCode: code,
        attemptId: oid,
        refundId: null,
        kasa: { status: "captured", amount: 12_345 },
        bank: { status: "voided", amount: 12_345, reference: expect.stringMatching(/^\d+$/) },
        repair: null,
      },
    ]);
    // Nothing changed the captured payment.
    expect((await api("GET", `/v1/payments/${code}`)).json.status).toBe("captured");

    const shown = kasa("reconcile", "show", est.id, "--json");
    expect(shown.status, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(est);
  }, 30_000);

  it("a --date in the future or malformed is a usage error: exit 2", () => {
    for (const date of ["2999-01-01", "2026-13-01"]) {
      const r = kasa("reconcile", "run", "--date", date);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain("--date");
    }
  });
});

describe("product 26 through the binary: kasa sandbox --reconcile-at", () => {
  it("the daily run follows the sandbox clock and fires once per day", async () => {
    const port = await freePort();
    const db = join(mkdtempSync(join(tmpdir(), "kasa-reconcile-daily-")), "sandbox.db");
    const child = spawn("dist/kasa", ["sandbox", "--port", String(port), "--db", db, "--log-format", "pretty", "--reconcile-at", "06:00"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let out = "";
      child.stdout.on("data", (d) => (out += String(d)));
      child.stderr.on("data", (d) => (out += String(d)));
      const deadline = Date.now() + 20_000;
      while (!/API key:\s+\S+/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const headers = { authorization: `Bearer ${/API key:\s+(\S+)/.exec(out)![1]}`, "content-type": "application/json" };
      const advance = async () =>
        expect(
          (
            await fetch(`http://127.0.0.1:${port}/sandbox/clock`, {
              method: "POST",
              headers,
              body: JSON.stringify({ advanceSeconds: 86_400 }),
            })
          ).status,
        ).toBe(200);
      const finished = () => [...out.matchAll(/the daily run finished \{"date":"(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]!);
      expect(finished()).toEqual([]);
      await advance();
      await advance();
      await advance();
      const days = finished();
      // Each day once, one after another, whatever the hour the test started at.
      expect(days.length).toBeGreaterThanOrEqual(3);
      expect(new Set(days).size).toBe(days.length);
      expect([...days].sort()).toEqual(days);
      const listed = spawnSync("dist/kasa", ["reconcile", "list", "--db", db, "--connection", "vpos-est", "--json"], { encoding: "utf8" });
      expect((JSON.parse(listed.stdout) as RunJson[]).map((r) => r.date).sort()).toEqual(days);
    } finally {
      child.kill("SIGKILL");
    }
  }, 30_000);
});
