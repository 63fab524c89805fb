import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxBinary, startSandboxBinary } from "../support/sandbox-binary";

// docs/routing.md through the compiled binary's sandbox (product 25): the demo router T-9001 sends
// a Demo Bank B card's installments to T-9101, fails over when Demo Bank A is down, and the
// operator reads each decision with `kasa payments show --json`. (The README's tour runs the same
// routed payment and failover as curl lines: test/e2e/sandbox-tour.test.ts.)

let sandbox: SandboxBinary;
afterAll(() => sandbox?.kill());
beforeAll(async () => {
  sandbox = await startSandboxBinary("kasa-routing-e2e-");
}, 60_000);

let n = 0;
async function api(path: string, body: unknown) {
  const res = await fetch(`${sandbox.base}${path}`, { method: "POST", headers: sandbox.headers, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as any };
}
async function routedPayment(card: string, installment = 1) {
  const c = await api("/v1/payments", {
    amount: 125_000,
    partnerTxCode: `route-e2e-${++n}`,
    terminalId: "T-9001",
    installment,
    returnUrl: "https://shop.example/done",
  });
  expect(c.status).toBe(201);
  const s = await api(`/sandbox/payments/${c.json.paymentCode}/simulate`, { card });
  return { code: c.json.paymentCode as string, outcome: s.json.outcome as string };
}
function cli(...args: string[]): any {
  const r = spawnSync("dist/kasa", [...args, "--db", sandbox.db, "--json"], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe("product 25 through the binary: the demo router", () => {
  it("the banner names the router and Demo Bank B's cards", () => {
    expect(sandbox.output()).toContain("T-9001 (router over T-1001, T-9101, T-3001");
    expect(sandbox.output()).toMatch(/Demo Bank B \(program world\) cards: 4000002200000006/);
  });

  it("a world card's installments go to T-9101; payments show --json reads the decision", async () => {
    const p = await routedPayment("4000002200000006", 3);
    expect(p.outcome).toBe("captured");
    const shown = cli("payments", "show", p.code);
    expect(shown.terminalId).toBe("T-9001");
    expect(shown.attempts).toEqual([
      expect.objectContaining({
        status: "captured",
        terminalId: "T-9101",
        connectionId: "vpos-2",
        route: { rule: "fallback", order: "rules", skipped: [{ terminalId: "T-1001", reason: "not_on_us" }] },
      }),
    ]);
  });

  it("an outage of Demo Bank A: the attempt fails over to T-9101 within the attempt", async () => {
    expect((await api("/sandbox/connections/vpos-1/outage", { seconds: 60 })).status).toBe(200);
    const p = await routedPayment("4000001100000009");
    expect(p.outcome).toBe("captured");
    const [attempt] = cli("payments", "show", p.code).attempts;
    expect(attempt).toMatchObject({ terminalId: "T-9101", route: { skipped: [{ terminalId: "T-1001", reason: "unavailable" }] } });
    expect((await api("/sandbox/connections/vpos-1/outage", { seconds: 0 })).json.outageUntil).toBeNull();
  });
});
