import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { posnetSimulatorSettings } from "../../src/bank/posnet/sim/settings";
import { formClient, parseForms } from "../../src/http/sandbox/form-client";
import { type SandboxBinary, startSandboxBinary } from "../support/sandbox-binary";

// Issue 33 acceptance through the compiled binary: terminal T-5001 of the sandbox demo data (Posnet)
// and a short-timeout terminal added by `kasa seed`, against the binary's own Posnet simulator:
// `simulate`, a handoff payment, a link payment, a void the same day and a return after day end;
// every bank fault; concurrent callbacks send one oosTranData; no card data in the database, WAL or log.

const APPROVE = "4000001100000009";
const CARDS_USED = [APPROVE];

let sandbox: SandboxBinary;
let base = "";
let db = "";

afterAll(() => sandbox?.kill());

beforeAll(async () => {
  // The simulator's call list is checked exactly; the daily reconciliation's status queries
  // (the test moves the sandbox clock past 06:00) would add to it.
  sandbox = await startSandboxBinary("kasa-posnet-e2e-", ["--reconcile-at", "off"]);
  ({ base, db } = sandbox);
  const _dir = sandbox.dir;
  // A connection with a short timeout for the "no answer" fault.
  sandbox.seed("posnet.json", {
    connections: [
      { id: "vpos-posnet-fast", psp: "psp-1", bank: "posnet", acceptsForeignCards: true, posnet: posnetSimulatorSettings(base, 500) },
    ],
    terminals: [
      { id: "T-5002", partner: "ptn_demo", connection: "vpos-posnet-fast", installments: [1], rates: [{ count: 1, rateBps: 199 }] },
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
  return { status: res.status, json: (await res.json()) as any };
};
const create = async (terminalId: string, amount = 10_000) => {
  const r = await api("POST", "/v1/payments", {
    amount,
    partnerTxCode: `posnet-e2e-${++n}`,
    terminalId,
    returnUrl: "https://shop.example/done",
  });
  expect(r.status).toBe(201);
  return r.json as { paymentCode: string; paymentRef: string };
};
const buyer = () => formClient((url, init) => fetch(url, { ...init, redirect: "manual" }), [base]);
const card = (paymentRef: string, pan = APPROVE) => ({ paymentRef, pan, expireMonth: "12", expireYear: "34", cv2: "731" });
const form = { "content-type": "application/x-www-form-urlencoded" };
/** Up to the bank's answer: the callback form its page would post. */
async function callbackOf(paymentRef: string): Promise<{ action: string; body: string }> {
  const relay = await fetch(`${base}/handoff`, { method: "POST", headers: form, body: new URLSearchParams(card(paymentRef)).toString() });
  const gateForm = parseForms(await relay.text(), `${base}/handoff`)[0]!;
  const gate = await fetch(gateForm.action, {
    method: "POST",
    headers: form,
    body: new URLSearchParams(gateForm.fields.map((f) => [f.name, f.value])).toString(),
  });
  const callback = parseForms(await gate.text(), gateForm.action)[0]!;
  return { action: callback.action, body: new URLSearchParams(callback.fields.map((f) => [f.name, f.value])).toString() };
}
const post = (url: string, body: string) => fetch(url, { method: "POST", redirect: "manual", headers: form, body });
const statusOf = async (code: string) => (await api("GET", `/v1/payments/${code}`)).json.status as string;
/** The bank's calls about one order: its XID is the last 20 characters of the attempt id and of `TDSC` + XID. */
const callsOf = async (attemptId: string) =>
  ((await (await fetch(`${base}/sim-posnet/calls?order=${attemptId.slice(-20)}`)).json()).calls as Array<{ operation: string }>).map(
    (c) => c.operation,
  );
/** The calls about the order of the latest charge (oosTranData). */
const latestOrderCalls = async (): Promise<string[]> => {
  const all = (await (await fetch(`${base}/sim-posnet/calls`)).json()).calls as Array<{ operation: string; order: string }>;
  const xid = all
    .filter((c) => c.operation === "oosTranData")
    .at(-1)!
    .order.slice(-20);
  return callsOf(xid);
};

describe("issue 33: Posnet through the compiled binary", () => {
  it("the banner names T-5001 and the Posnet simulator; `simulate` pays through it", async () => {
    expect(sandbox.output()).toContain("T-5001");
    expect(sandbox.output()).toContain("/sim-posnet/");
    const p = await create("T-5001");
    const simulated = await fetch(`${base}/sandbox/payments/${p.paymentCode}/simulate`, {
      method: "POST",
      headers: sandbox.headers,
      body: JSON.stringify({ card: APPROVE }),
    });
    expect(simulated.status).toBe(200);
    expect(await simulated.json()).toMatchObject({ paymentCode: p.paymentCode, status: "captured" });
  }, 30_000);

  it("a payment captured and voided the same day; another returned in part after day end", async () => {
    const a = await create("T-5001");
    const done = await buyer().post(`${base}/handoff`, card(a.paymentRef));
    expect(done.leftTo).toContain(`paymentCode=${a.paymentCode}&status=captured`);
    expect(await latestOrderCalls()).toEqual(["oosRequestData", "oosResolveMerchantData", "oosTranData"]);
    const voided = await api("POST", `/v1/payments/${a.paymentCode}/refunds/void`, { partnerRefundCode: "pv-1" });
    expect(voided.json.status).toBe("approved");
    expect(await statusOf(a.paymentCode)).toBe("voided");

    const b = await create("T-5001", 20_000);
    await buyer().post(`${base}/handoff`, card(b.paymentRef));
    expect(await statusOf(b.paymentCode)).toBe("captured");
    expect((await api("POST", "/sandbox/clock", { advanceSeconds: 86_400 })).status).toBe(200);
    const returned = await api("POST", `/v1/payments/${b.paymentCode}/refunds/credit`, { partnerRefundCode: "pc-1", amount: 5_000 });
    expect(returned.json.status).toBe("approved");
    expect(await latestOrderCalls()).toEqual(["oosRequestData", "oosResolveMerchantData", "oosTranData", "agreement", "return"]);
  }, 30_000);

  it("a link payment is captured and the link completed", async () => {
    const link = await api("POST", "/v1/payment-links", { amount: 30_000, terminalId: "T-5001" });
    expect(link.status).toBe(201);
    const client = buyer();
    const page = await client.get(link.json.url);
    const payForm = page.page?.forms.find((f) => f.id === "pay-form");
    expect(payForm).toBeDefined();
    await client.submit(payForm!, { pan: APPROVE, expireMonth: "12", expireYear: "34", cv2: "731", installment: "1" });
    expect((await api("GET", `/v1/payment-links/${link.json.id}`)).json.status).toBe("completed");
  }, 30_000);

  it.each([
    ["T-5002", 10_091, "captured"],
    ["T-5001", 10_092, "failed"],
    ["T-5001", 10_093, "captured"],
    ["T-5001", 10_094, "captured"],
    ["T-5001", 10_095, "captured"],
  ])(
    "%s amount %i (a bank fault): %s, one oosTranData, the outcome asked with agreement",
    async (terminalId, amount, status) => {
      const p = await create(terminalId, amount);
      const { action, body } = await callbackOf(p.paymentRef);
      const done = await post(action, body);
      expect(done.headers.get("location")).toContain(`status=${status}`);
      expect(await statusOf(p.paymentCode)).toBe(status);
      expect(await callsOf(action.slice(action.lastIndexOf("/") + 1))).toEqual([
        "oosRequestData",
        "oosResolveMerchantData",
        "oosTranData",
        "agreement",
      ]);
    },
    30_000,
  );

  it("concurrent callbacks send exactly one oosTranData; a tampered one is a 400 with no bank charge", async () => {
    const p = await create("T-5001");
    const { action, body } = await callbackOf(p.paymentRef);
    const attemptId = action.slice(action.lastIndexOf("/") + 1);
    expect(
      (
        await post(
          action,
          body.replace(/Sign=(.)/, (_m, c: string) => `Sign=${c === "A" ? "B" : "A"}`),
        )
      ).status,
    ).toBe(400);
    expect((await post(action, `${body}&Sign=00`)).status).toBe(400);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(action, body)));
    expect(answers.map((r) => r.status).sort()).toEqual([303, 400, 400, 400, 400, 400]);
    expect((await callsOf(attemptId)).filter((o) => o === "oosTranData")).toHaveLength(1);
    expect(await statusOf(p.paymentCode)).toBe("captured");
  }, 30_000);

  it("no card number or CVV in the database, its WAL, or the server's output", async () => {
    sandbox.child.kill("SIGTERM");
    await new Promise((r) => sandbox.child.once("exit", r));
    for (const file of [db, `${db}-wal`].filter(existsSync)) {
      const bytes = readFileSync(file).toString("latin1");
      for (const pan of CARDS_USED) expect(bytes.includes(pan), `${pan} in ${file}`).toBe(false);
    }
    const logs = sandbox.output().slice(sandbox.output().indexOf("Try:"));
    expect(logs).toContain("/handoff/callback/");
    for (const pan of CARDS_USED) expect(logs).not.toContain(pan.slice(6));
  }, 30_000);
});
