import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeForm } from "../../src/bank/akbank/form";
import { akbankSimulatorSettings } from "../../src/bank/akbank/sim/settings";
import { formClient, parseForms } from "../../src/http/sandbox/form-client";
import { type SandboxBinary, startSandboxBinary } from "../support/sandbox-binary";

// Issue 34 through the compiled binary: terminal T-6001 of the sandbox demo data (AkbankPos, model
// 3d) against the binary's own AkbankPos simulator: a payment through `simulate` and one through
// the form client, a void the same day and a refund after day end, bank faults, concurrent
// callbacks (one sale), and no card data in the database, its WAL or the log.

const APPROVE = "4000001100000009";

let sandbox: SandboxBinary;
let base = "";
let db = "";

afterAll(() => sandbox?.kill());

beforeAll(async () => {
  // The simulator's call list is checked exactly; the daily reconciliation's status queries
  // (the test moves the sandbox clock past 06:00) would add to it.
  sandbox = await startSandboxBinary("kasa-akbank-e2e-", ["--reconcile-at", "off"]);
  ({ base, db } = sandbox);
  // A connection whose adapter gives up after 0.5 s: the `.91` fault (an answer after 65 s) in seconds.
  sandbox.seed("akbank-fast.json", {
    connections: [
      {
        id: "vpos-akbank-fast",
        psp: "psp-1",
        bank: "akbank",
        acceptsForeignCards: true,
        akbank: akbankSimulatorSettings(base, "3d", 500),
      },
    ],
    terminals: [
      {
        id: "T-6002",
        partner: "ptn_demo",
        connection: "vpos-akbank-fast",
        installments: [1],
        rates: [{ count: 1, rateBps: 189 }],
      },
    ],
  });
}, 60_000);

let n = 0;
const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: sandbox.headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};
const create = async (amount = 10_000, terminalId = "T-6001") => {
  const r = await api("POST", "/v1/payments", {
    amount,
    partnerTxCode: `akbank-e2e-${++n}`,
    terminalId,
    returnUrl: "https://shop.example/done",
  });
  expect(r.status).toBe(201);
  return r.json as { paymentCode: string; paymentRef: string };
};
const buyer = () => formClient((url, init) => fetch(url, { ...init, redirect: "manual" }), [base]);
const card = (paymentRef: string) => ({ paymentRef, pan: APPROVE, expireMonth: "12", expireYear: "34", cv2: "731" });
const statusOf = async (code: string) => (await api("GET", `/v1/payments/${code}`)).json.status as string;
const calls = async (orderId: string) =>
  ((await (await fetch(`${base}/sim-akbank/calls?orderId=${orderId}`)).json()).calls as Array<{ txnCode: string }>).map((c) => c.txnCode);
/** The order id of the last sale (1000) the simulator received for this amount. */
const lastSale = async (amount: number) =>
  ((await (await fetch(`${base}/sim-akbank/calls`)).json()).calls as Array<{ txnCode: string; orderId: string; amount: number }>)
    .filter((c) => c.txnCode === "1000" && c.amount === amount)
    .at(-1)!.orderId;

async function callbackOf(paymentRef: string): Promise<{ action: string; body: string }> {
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const relay = await fetch(`${base}/handoff`, { method: "POST", headers: form, body: new URLSearchParams(card(paymentRef)).toString() });
  const gateForm = parseForms(await relay.text(), `${base}/handoff`)[0]!;
  const gate = await fetch(gateForm.action, {
    method: "POST",
    headers: form,
    body: new URLSearchParams(gateForm.fields.map((f) => [f.name, f.value])).toString(),
  });
  const callback = parseForms(await gate.text(), gateForm.action)[0]!;
  return { action: callback.action, body: encodeForm(callback.fields.map((f) => [f.name, f.value] as const)) };
}
const post = (url: string, body: string) =>
  fetch(url, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body });

describe("issue 34: AkbankPos through the compiled binary", () => {
  it("the banner names T-6001 and the AkbankPos simulator", () => {
    expect(sandbox.output()).toContain("T-6001");
    expect(sandbox.output()).toContain("/sim-akbank/");
  });

  it("simulate: captured, then voided the same day (1000, 1003)", async () => {
    const p = await create();
    expect((await api("POST", `/sandbox/payments/${p.paymentCode}/simulate`, { card: APPROVE })).json).toMatchObject({
      status: "captured",
    });
    const voided = await api("POST", `/v1/payments/${p.paymentCode}/refunds/void`, { partnerRefundCode: "v-1" });
    expect(voided.json).toMatchObject({ status: "approved" });
    expect((await api("GET", `/v1/payments/${p.paymentCode}/refunds/${voided.json.refundId}`)).json).toMatchObject({
      procReturnCode: "VPS-0000",
    });
    expect(await statusOf(p.paymentCode)).toBe("voided");
    expect(await calls(await lastSale(10_000))).toEqual(["1000", "1003"]);
  }, 30_000);

  it("the form client: captured, then a partial refund after day end (1010 marker, 1002)", async () => {
    const p = await create(20_000);
    expect((await buyer().post(`${base}/handoff`, card(p.paymentRef))).leftTo).toContain("status=captured");
    expect((await api("POST", "/sandbox/clock", { advanceSeconds: 86_400 })).status).toBe(200);
    const refunded = await api("POST", `/v1/payments/${p.paymentCode}/refunds/credit`, { partnerRefundCode: "c-1", amount: 5_000 });
    expect(refunded.json).toMatchObject({ status: "approved" });
    expect(await calls(await lastSale(20_000))).toEqual(["1000", "1010", "1002"]);
  }, 30_000);

  it.each([
    [10_091, "captured", "T-6002"],
    [10_092, "failed", "T-6001"],
    [10_093, "captured", "T-6001"],
    [10_094, "captured", "T-6001"],
    [10_095, "captured", "T-6001"],
  ])(
    "amount %i (a bank fault): %s, one sale, the outcome asked with 1010",
    async (amount, status, terminalId) => {
      const p = await create(amount, terminalId);
      expect((await buyer().post(`${base}/handoff`, card(p.paymentRef))).leftTo).toContain(`status=${status}`);
      const { json } = await api("GET", `/v1/payments/${p.paymentCode}`);
      expect(json.status).toBe(status);
      const orderId = await lastSale(amount);
      expect(await calls(orderId)).toEqual(["1000", "1010"]);
    },
    30_000,
  );

  it("concurrent callbacks for one attempt send exactly one sale; a forged one is a 400", async () => {
    const p = await create();
    const { action, body } = await callbackOf(p.paymentRef);
    expect(
      (
        await post(
          action,
          body.replace(/hash=(.)/, (_m, c: string) => `hash=${c === "A" ? "B" : "A"}`),
        )
      ).status,
    ).toBe(400);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(action, body)));
    expect(answers.map((r) => r.status).sort()).toEqual([303, 400, 400, 400, 400, 400]);
    expect(await calls(action.slice(action.lastIndexOf("/") + 1))).toEqual(["1000"]);
    expect(await statusOf(p.paymentCode)).toBe("captured");
  }, 30_000);

  it("no card number or CVV in the database, its WAL, or the server's output", async () => {
    sandbox.child.kill("SIGTERM");
    await new Promise((r) => sandbox.child.once("exit", r));
    for (const file of [db, `${db}-wal`].filter(existsSync))
      expect(readFileSync(file).toString("latin1").includes(APPROVE), file).toBe(false);
    const logs = sandbox.output().slice(sandbox.output().indexOf("Try:"));
    expect(logs).toContain("/handoff/callback/");
    expect(logs).not.toContain(APPROVE.slice(6));
  }, 30_000);
});
