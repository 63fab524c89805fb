import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeFormText } from "../../src/bank/form-bytes";
import { garantiSimulatorSettings } from "../../src/bank/garanti/sim/settings";
import { formClient, parseForms } from "../../src/http/sandbox/form-client";
import { resign } from "../api/garanti-flow";
import { type SandboxBinary, startSandboxBinary } from "../support/sandbox-binary";

// Issue 31 acceptance through the compiled binary: terminal T-4001 of the sandbox demo data
// (Garanti, model 3d), a 3d_pay terminal and a 3d one with a short timeout added by `kasa seed`,
// against the binary's own Garanti simulator: payments through `simulate` and the form client, a
// void the same day and a refund after day end, every bank fault, concurrent and tampered
// callbacks; no card data in the database, its WAL or the log.

const APPROVE = "4000001100000009";
const CARDS_USED = [APPROVE, "4000008800000007"];

let sandbox: SandboxBinary;
let base = "";
let db = "";

afterAll(() => sandbox?.kill());

const terminal = (id: string, connection: string) => ({
  id,
  partner: "ptn_demo",
  connection,
  installments: [1, 3],
  rates: [
    { count: 1, rateBps: 189 },
    { count: 3, rateBps: 440 },
  ],
});

beforeAll(async () => {
  // The simulator's call list is checked exactly; the daily reconciliation's status queries
  // (the test moves the sandbox clock past 06:00) would add to it.
  sandbox = await startSandboxBinary("kasa-garanti-e2e-", ["--reconcile-at", "off"]);
  ({ base, db } = sandbox);
  const _dir = sandbox.dir;
  sandbox.seed("garanti.json", {
    connections: [
      {
        id: "vpos-garanti-pay",
        psp: "psp-1",
        bank: "garanti",
        acceptsForeignCards: true,
        garanti: garantiSimulatorSettings(base, "3d_pay", 5_000),
      },
      {
        id: "vpos-garanti-fast",
        psp: "psp-1",
        bank: "garanti",
        acceptsForeignCards: true,
        garanti: garantiSimulatorSettings(base, "3d", 500),
      },
    ],
    terminals: [terminal("T-4002", "vpos-garanti-pay"), terminal("T-4003", "vpos-garanti-fast")],
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
    partnerTxCode: `garanti-e2e-${++n}`,
    terminalId,
    returnUrl: "https://shop.example/done",
  });
  expect(r.status).toBe(201);
  return r.json as { paymentCode: string; paymentRef: string };
};
const buyer = () => formClient((url, init) => fetch(url, { ...init, redirect: "manual" }), [base]);
const card = (paymentRef: string, pan = APPROVE) => ({ paymentRef, pan, expireMonth: "12", expireYear: "34", cv2: "731" });
const form = { "content-type": "application/x-www-form-urlencoded" };
/** Up to the bank's answer: the callback form its page would post, and where. */
async function callbackOf(paymentRef: string): Promise<{ action: string; body: string }> {
  const relay = await fetch(`${base}/handoff`, { method: "POST", headers: form, body: new URLSearchParams(card(paymentRef)).toString() });
  const gateForm = parseForms(await relay.text(), `${base}/handoff`)[0]!;
  const gate = await fetch(gateForm.action, {
    method: "POST",
    headers: form,
    body: encodeFormText(gateForm.fields.map((f) => [f.name, f.value])),
  });
  const callback = parseForms(await gate.text(), gateForm.action)[0]!;
  return { action: callback.action, body: encodeFormText(callback.fields.map((f) => [f.name, f.value] as const)) };
}
const post = (url: string, body: string) => fetch(url, { method: "POST", redirect: "manual", headers: form, body });
const statusOf = async (code: string) => (await api("GET", `/v1/payments/${code}`)).json.status as string;
const calls = async () => (await (await fetch(`${base}/sim-garanti/calls`)).json()).calls as Array<{ type: string; orderId: string }>;
const orderOf = (action: string) => action.slice(action.lastIndexOf("/") + 1).replace("-", "");

describe("issue 31: Garanti through the compiled binary", () => {
  it("the banner names T-4001 and the Garanti simulator", () => {
    expect(sandbox.output()).toContain("T-4001");
    expect(sandbox.output()).toContain("/sim-garanti/");
  });

  it("T-4001 through simulate: captured, then voided the same day", async () => {
    const p = await create("T-4001");
    const r = await api("POST", `/sandbox/payments/${p.paymentCode}/simulate`, { card: APPROVE });
    expect(r.json).toMatchObject({ outcome: "captured", status: "captured" });
    expect((await api("POST", `/v1/payments/${p.paymentCode}/refunds/void`, { partnerRefundCode: "gv-1" })).json.status).toBe("approved");
    expect(await statusOf(p.paymentCode)).toBe("voided");
    expect(
      (await api("POST", `/sandbox/payments/${(await create("T-4001")).paymentCode}/simulate`, { card: "4000008800000007" })).json,
    ).toMatchObject({
      outcome: "failed",
    });
  }, 30_000);

  it("T-4002 (3d_pay) through the form client: captured with no sales, refunded in part after the day end", async () => {
    const before = (await calls()).length;
    const p = await create("T-4002", 20_000);
    const done = await buyer().post(`${base}/handoff`, card(p.paymentRef));
    expect(done.leftTo).toContain(`paymentCode=${p.paymentCode}&status=captured`);
    expect((await api("POST", "/sandbox/clock", { advanceSeconds: 86_400 })).status).toBe(200);
    const refunded = await api("POST", `/v1/payments/${p.paymentCode}/refunds/credit`, { partnerRefundCode: "gc-1", amount: 5_000 });
    expect(refunded.json.status).toBe("approved");
    expect((await calls()).slice(before).map((c) => c.type)).toEqual(["orderhistoryinq", "refund"]);
  }, 30_000);

  it.each([
    ["T-4003", 10_091, "captured"],
    ["T-4001", 10_092, "failed"],
    ["T-4001", 10_093, "captured"],
    ["T-4001", 10_094, "captured"],
    ["T-4001", 10_095, "captured"],
  ])(
    "%s amount %i (a bank fault): %s, one sales, the outcome asked with orderinq",
    async (terminalId, amount, status) => {
      const p = await create(terminalId, amount);
      const done = await buyer().post(`${base}/handoff`, card(p.paymentRef));
      expect(done.leftTo).toContain(`status=${status}`);
      expect(await statusOf(p.paymentCode)).toBe(status);
      const orderId = (await calls()).filter((c) => c.type === "sales").at(-1)!.orderId;
      expect((await calls()).filter((c) => c.orderId === orderId).map((c) => c.type)).toEqual(["sales", "orderinq"]);
    },
    30_000,
  );

  it("concurrent callbacks send exactly one sales; tampered ones are a 400 and change nothing", async () => {
    const p = await create("T-4001");
    const { action, body } = await callbackOf(p.paymentRef);
    expect((await post(action, body.replace("mdstatus=1", "mdstatus=4"))).status).toBe(400);
    expect((await post(action, body.replace(/txnamount=\d+/, "txnamount=1"))).status).toBe(400);
    expect((await post(action, resign(body, { oid: "att0" }))).status).toBe(400);
    expect((await post(action, body.slice(0, Math.floor(body.length / 2)))).status).toBe(400);
    expect(await statusOf(p.paymentCode)).toBe("initiated");
    const answers = await Promise.all(Array.from({ length: 6 }, () => post(action, body)));
    expect(answers.map((r) => r.status).sort()).toEqual([303, 400, 400, 400, 400, 400]);
    expect((await calls()).filter((c) => c.orderId === orderOf(action)).map((c) => c.type)).toEqual(["sales"]);
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
