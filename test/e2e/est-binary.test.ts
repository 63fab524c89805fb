import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { estSimulatorSettings } from "../../src/bank/est/sim/settings";
import { encodeFormBytes } from "../../src/bank/form-bytes";
import { encodeIso88599 } from "../../src/bank/iso-8859-9";
import { formClient, parseForms } from "../../src/http/sandbox/form-client";
import { type SandboxBinary, startSandboxBinary } from "../support/sandbox-binary";
import { resign } from "../api/est-flow";

// Issue 16 acceptance through the compiled binary: terminal T-3001 of the sandbox demo data (EST,
// model 3d) and a 3d_pay terminal added by `kasa seed`, against the binary's own EST simulator:
// a payment, a link payment, a void the same day and a credit after day end, for both models;
// every bank fault; concurrent callbacks send one Auth; no card data in the database, WAL or log.

const APPROVE = "4000001100000009";
const CARDS_USED = [APPROVE, "4000008800000007", "4000009900000004"];

let sandbox: SandboxBinary;
let base = "";
let db = "";

afterAll(() => sandbox?.kill());

const est = (model: "3d" | "3d_pay", timeoutMs: number) => estSimulatorSettings(base, model, timeoutMs);

const terminal = (id: string, connection: string) => ({
  id,
  partner: "ptn_demo",
  connection,
  installments: [1, 3],
  rates: [
    { count: 1, rateBps: 199 },
    { count: 3, rateBps: 450 },
  ],
});

beforeAll(async () => {
  sandbox = await startSandboxBinary("kasa-est-e2e-");
  ({ base, db } = sandbox);
  const _dir = sandbox.dir;
  // A 3d_pay connection, and a 3d one with a short timeout for the "no answer" fault.
  sandbox.seed("est.json", {
    connections: [
      { id: "vpos-est-pay", psp: "psp-1", bank: "est", acceptsForeignCards: true, est: est("3d_pay", 5_000) },
      { id: "vpos-est-fast", psp: "psp-1", bank: "est", acceptsForeignCards: true, est: est("3d", 500) },
    ],
    terminals: [terminal("T-3002", "vpos-est-pay"), terminal("T-3003", "vpos-est-fast")],
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
    partnerTxCode: `est-e2e-${++n}`,
    terminalId,
    returnUrl: "https://shop.example/done",
  });
  expect(r.status).toBe(201);
  return r.json as { paymentCode: string; paymentRef: string };
};
const buyer = () => formClient((url, init) => fetch(url, { ...init, redirect: "manual" }), [base]);
const card = (paymentRef: string, pan = APPROVE) => ({ paymentRef, pan, expireMonth: "12", expireYear: "34", cv2: "731" });
/** Up to the bank's answer: the callback form its page would post, as the ISO-8859-9 bytes a browser sends. */
async function callbackOf(paymentRef: string): Promise<{ action: string; body: string }> {
  const form = { "content-type": "application/x-www-form-urlencoded" };
  const relay = await fetch(`${base}/handoff`, { method: "POST", headers: form, body: new URLSearchParams(card(paymentRef)).toString() });
  const gateForm = parseForms(await relay.text(), `${base}/handoff`)[0]!;
  const gateBody = new URLSearchParams(gateForm.fields.map((f) => [f.name, f.value])).toString();
  const gate = await fetch(gateForm.action, { method: "POST", headers: form, body: gateBody });
  const callback = parseForms(await gate.text(), gateForm.action)[0]!;
  return { action: callback.action, body: encodeFormBytes(callback.fields.map((f) => [f.name, encodeIso88599(f.value)] as const)) };
}
const post = (url: string, body: string) =>
  fetch(url, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
const statusOf = async (code: string) => (await api("GET", `/v1/payments/${code}`)).json.status as string;
const calls = async (type?: string) => {
  const all = (await (await fetch(`${base}/sim-est/calls`)).json()).calls as Array<{ type: string; oid: string }>;
  return type ? all.filter((c) => c.type === type) : all;
};

describe("issue 16: EST through the compiled binary", () => {
  it("the banner names T-3001 and the EST simulator", () => {
    expect(sandbox.output()).toContain("T-3001");
    expect(sandbox.output()).toContain("/sim-est/");
  });

  it.each([["T-3001"], ["T-3002"]])(
    "%s: payment captured, void the same day, then a credit after day end on another",
    async (terminalId) => {
      const a = await create(terminalId);
      const done = await buyer().post(`${base}/handoff`, card(a.paymentRef));
      expect(done.leftTo).toContain(`paymentCode=${a.paymentCode}&status=captured`);
      expect(await statusOf(a.paymentCode)).toBe("captured");
      const voided = await api("POST", `/v1/payments/${a.paymentCode}/refunds/void`, { partnerRefundCode: `v-${terminalId}` });
      expect(voided.json.status).toBe("approved");
      expect(await statusOf(a.paymentCode)).toBe("voided");

      const b = await create(terminalId, 20_000);
      await buyer().post(`${base}/handoff`, card(b.paymentRef));
      expect(await statusOf(b.paymentCode)).toBe("captured");
      expect((await api("POST", "/sandbox/clock", { advanceSeconds: 86_400 })).status).toBe(200);
      const credited = await api("POST", `/v1/payments/${b.paymentCode}/refunds/credit`, {
        partnerRefundCode: `c-${terminalId}`,
        amount: 5_000,
      });
      expect(credited.json.status).toBe("approved");
      const read = await api("GET", `/v1/payments/${b.paymentCode}/refunds/${credited.json.refundId}`);
      expect(read.json).toMatchObject({ method: "credit", status: "approved", procReturnCode: "00" });
    },
    60_000,
  );

  it.each([["T-3001"], ["T-3002"]])(
    "%s: a link payment is captured and the link completed",
    async (terminalId) => {
      const link = await api("POST", "/v1/payment-links", { amount: 30_000, terminalId });
      expect(link.status).toBe(201);
      const client = buyer();
      const page = await client.get(link.json.url);
      const form = page.page?.forms.find((f) => f.id === "pay-form");
      expect(form).toBeDefined();
      await client.submit(form!, { pan: APPROVE, expireMonth: "12", expireYear: "34", cv2: "731", installment: "1" });
      expect((await api("GET", `/v1/payment-links/${link.json.id}`)).json.status).toBe("completed");
    },
    60_000,
  );

  it.each([
    ["T-3003", 10_091, "captured"],
    ["T-3001", 10_092, "failed"],
    ["T-3001", 10_093, "captured"],
    ["T-3001", 10_094, "captured"],
    ["T-3001", 10_095, "captured"],
  ])(
    "%s amount %i (a bank fault): %s, one Auth, the outcome asked with ORDERSTATUS",
    async (terminalId, amount, status) => {
      const p = await create(terminalId, amount);
      const done = await buyer().post(`${base}/handoff`, card(p.paymentRef));
      expect(done.leftTo).toContain(`status=${status}`);
      expect(await statusOf(p.paymentCode)).toBe(status);
      const oid = (await calls("Auth")).at(-1)!.oid;
      expect((await calls()).filter((c) => c.oid === oid).map((c) => c.type)).toEqual(["Auth", "ORDERSTATUS"]);
    },
    60_000,
  );

  it("concurrent callbacks for one attempt send exactly one Auth; a tampered one is a 400", async () => {
    const p = await create("T-3001");
    const { action, body } = await callbackOf(p.paymentRef);
    expect((await post(action, body.replace("mdStatus=1", "mdStatus=4"))).status).toBe(400);
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(action, body)));
    expect(answers.map((r) => r.status).sort()).toEqual([303, 400, 400, 400, 400, 400]);
    const oid = (await calls("Auth")).at(-1)!.oid;
    expect((await calls()).filter((c) => c.oid === oid && c.type === "Auth")).toHaveLength(1);
    expect(await statusOf(p.paymentCode)).toBe("captured");
  }, 60_000);

  it.each([
    ["a forged HASH", (b: string) => b.replace(/HASH=(.)/, (_m, c: string) => `HASH=${c === "A" ? "B" : "A"}`)],
    ["a truncated body", (b: string) => b.slice(0, Math.floor(b.length / 2))],
    ["a wrong amount echoed, signed again", (b: string) => resign(b, { amount: "1.00" })],
  ])(
    "%s: 400, the payment stays initiated, no Auth",
    async (_name, tamper) => {
      const p = await create("T-3001");
      const { action, body } = await callbackOf(p.paymentRef);
      expect((await post(action, tamper(body))).status).toBe(400);
      expect(await statusOf(p.paymentCode)).toBe("initiated");
      const oid = action.slice(action.lastIndexOf("/") + 1);
      expect((await calls()).filter((c) => c.oid === oid)).toEqual([]);
    },
    60_000,
  );

  it("re-ordered, replayed and another attempt's callbacks: once captured, then refused; one Auth each", async () => {
    const a = await create("T-3001");
    const b = await create("T-3001");
    const cbA = await callbackOf(a.paymentRef);
    const cbB = await callbackOf(b.paymentRef);
    expect((await post(cbB.action, cbA.body)).status).toBe(400);
    expect((await post(cbA.action, cbA.body.split("&").reverse().join("&"))).status).toBe(303);
    expect((await post(cbA.action, cbA.body)).status).toBe(400);
    expect(await statusOf(a.paymentCode)).toBe("captured");
    expect(await statusOf(b.paymentCode)).toBe("initiated");
    const oidA = cbA.action.slice(cbA.action.lastIndexOf("/") + 1);
    expect((await calls()).filter((c) => c.oid === oidA).map((c) => c.type)).toEqual(["Auth"]);
  }, 60_000);

  it("no card number or CVV in the database, its WAL, or the server's output", async () => {
    sandbox.child.kill("SIGTERM");
    await new Promise((r) => sandbox.child.once("exit", r));
    for (const file of [db, `${db}-wal`].filter(existsSync)) {
      const bytes = readFileSync(file).toString("latin1");
      for (const pan of CARDS_USED) expect(bytes.includes(pan), `${pan} in ${file}`).toBe(false);
    }
    // The banner lists the test cards; what follows it (one log line per request) must not.
    const logs = sandbox.output().slice(sandbox.output().indexOf("Try:"));
    expect(logs).toContain("/handoff/callback/");
    for (const pan of CARDS_USED) expect(logs).not.toContain(pan.slice(6));
  }, 30_000);
});
