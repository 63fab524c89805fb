import { afterEach, describe, expect, it } from "vitest";
import { createEstSimulator, EST_SIM_ACCOUNT } from "../../src/bank/est/sim/simulator";
import { formClient } from "../../src/http/sandbox/form-client";
import { SECOND_MS, THREE_D_WINDOW_STANDARD_MS } from "../../src/limits";
import { kasaProcess, type KasaProcess } from "../support/kasa-process";
import { useRestartRig, type RestartFiles } from "../support/restart-rig";
import { BANK, buyerOf, callbackOf, EST_SEED, type EstHarness, estHarness, estPayment } from "./est-flow";
import { BASE, cardFields, eventsOf } from "./payments-flow";

// Issue 30 / product 26: a buyer is never charged for a payment kasa shows expired. On a 3D Pay
// model the bank charges at its gate; when the buyer closes the window after that, no callback
// ever comes. The payment's expiry asks the bank (ORDERSTATUS) at once and voids an approval.
// The EST simulator's `.96` fault plays exactly that buyer: approved at the gate, then gone.

const APPROVE = "4000001100000009";
const INSUFFICIENT = "4000009900000004";
const LOST = 10_096; // 100.96 TL: the `.96` fault

let h: EstHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const statusOf = async (code: string) => (await h!.store.q.payments.get(code))?.status;
const attemptOf = async (code: string) => (await h!.store.q.attempts.byPayment(code))[0]!;
const bankCalls = () => h!.sent.map((s) => s.type);

describe("product 26: a 3D Pay attempt whose callback never came is asked about at expiry, and voided if approved", () => {
  it("the .96 buyer: approved at the gate, never back; the expiry asks ORDERSTATUS and voids it; the payment stays expired", async () => {
    h = await estHarness();
    const { paymentCode, paymentRef } = await estPayment(h, "T-EPAY", LOST);
    const out = await buyerOf(h).post(`${BASE}/handoff`, cardFields(paymentRef, APPROVE));
    expect(out.page?.body ?? "").toContain("est-sim-lost");
    expect(await statusOf(paymentCode)).toBe("initiated");
    expect(bankCalls()).toEqual([]);
    await h.advance(THREE_D_WINDOW_STANDARD_MS);
    expect(await statusOf(paymentCode)).toBe("expired");
    expect(bankCalls()).toEqual(["ORDERSTATUS", "Void"]);
    const attempt = await attemptOf(paymentCode);
    expect(await h.store.q.bank.check(attempt.id)).toMatchObject({ kind: "void", outcome: "voided", dueAtMs: null });
    expect(await eventsOf(h, paymentCode)).toEqual(["payment.expired"]);
  });

  it("a card the gate declined and a buyer who never came back: ORDERSTATUS only, no Void", async () => {
    h = await estHarness();
    const { paymentCode } = await estPayment(h, "T-EPAY", 10_000);
    const attemptId = await leaveAtGate(h, paymentCode, INSUFFICIENT);
    await h.advance(THREE_D_WINDOW_STANDARD_MS);
    expect(await statusOf(paymentCode)).toBe("expired");
    expect(bankCalls()).toEqual(["ORDERSTATUS"]);
    expect(await h.store.q.bank.check(attemptId)).toMatchObject({ kind: "resolve", outcome: "failed", dueAtMs: null });
  });

  it("a 3d model attempt left at the bank's page: nothing was charged there, nothing is asked", async () => {
    h = await estHarness();
    const { paymentCode } = await estPayment(h, "T-E3D", 10_000);
    const attemptId = await leaveAtGate(h, paymentCode, APPROVE);
    await h.advance(THREE_D_WINDOW_STANDARD_MS);
    expect(await statusOf(paymentCode)).toBe("expired");
    expect(bankCalls()).toEqual([]);
    expect(await h.store.q.bank.check(attemptId)).toBeUndefined();
  });

  it("no answer to ORDERSTATUS: asked again later, never voided blindly; the answer then voids", async () => {
    let down = true;
    h = await estHarness({ transport: (_url, _init, send) => (down ? Promise.resolve(new Response("busy", { status: 503 })) : send()) });
    const { paymentCode } = await estPayment(h, "T-EPAY", 10_000);
    await leaveAtGate(h, paymentCode, APPROVE);
    await h.advance(THREE_D_WINDOW_STANDARD_MS);
    expect(bankCalls()).toEqual(["ORDERSTATUS"]);
    down = false;
    await h.advance(30 * SECOND_MS);
    expect(bankCalls()).toEqual(["ORDERSTATUS", "ORDERSTATUS", "Void"]);
    expect(await statusOf(paymentCode)).toBe("expired");
  });
});

/** The buyer reaches the bank's gate (a 3D Pay gate decides and charges there), then closes the window. */
async function leaveAtGate(k: EstHarness, paymentCode: string, pan: string): Promise<string> {
  const payment = await k.store.q.payments.get(paymentCode);
  await callbackOf(k, payment!.paymentRef!, pan);
  return (await k.store.q.attempts.byPayment(paymentCode))[0]!.id;
}

describe("product 26: a restart between the expiry and the void", () => {
  let files: RestartFiles;
  const rig = useRestartRig<KasaProcess>("kasa-est-lost-", (f) => {
    files = f;
  });

  it("the next process finds the open question in the database, asks ORDERSTATUS and voids; the charge is voided once", async () => {
    const sim = createEstSimulator({
      accounts: [EST_SIM_ACCOUNT],
      nowMs: () => files.clock.nowMs(),
      nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
    });
    let answer = false;
    // Until the restart the bank's API never answers (the adapter gives up at its timeout).
    const hang = (signal: AbortSignal | null | undefined) =>
      new Promise<Response>((_resolve, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
    const fetch = async (_url: string, init: RequestInit): Promise<Response> =>
      answer ? sim.api(new Request(`${BANK}/sim-est/fim/api`, { method: "POST", body: init.body as BodyInit })) : hang(init.signal);
    const open = async (seed: boolean) =>
      rig.track(await kasaProcess({ path: files.path, clock: files.clock, seed: seed ? EST_SEED : undefined, bankFetch: fetch }));
    const first = await open(true);
    const created = await first.post("/v1/payments", {
      amount: LOST,
      partnerTxCode: "lost-1",
      terminalId: "T-EPAY",
      returnUrl: "https://shop.example/r",
    });
    const code = created.json.paymentCode as string;
    const route = (url: string, init: RequestInit) =>
      url.startsWith(BANK) ? sim.gate(new Request(url, init)) : Promise.resolve(first.runtime.app.request(url, init));
    const out = await formClient(route, [BASE, BANK]).post(`${BASE}/handoff`, cardFields(created.json.paymentRef, APPROVE));
    expect(out.page?.body ?? "").toContain("est-sim-lost");
    // The window closes; the question to the bank gets no answer before the process dies.
    await first.advance(THREE_D_WINDOW_STANDARD_MS);
    expect((await first.store.q.payments.get(code))?.status).toBe("expired");
    expect(sim.calls()).toEqual([]);
    await rig.stop(first);

    answer = true;
    const second = await open(false);
    await second.advance(BANK_TAKEOVER_GRACE_MS);
    expect(sim.calls().map((c) => c.type)).toEqual(["ORDERSTATUS", "Void"]);
    const attempt = (await second.store.q.attempts.byPayment(code))[0]!;
    expect(await second.store.q.bank.check(attempt.id)).toMatchObject({ kind: "void", outcome: "voided" });
    expect((await second.store.q.payments.get(code))?.status).toBe("expired");
  });
});

/** Past the first retry of an unanswered question: the next process's wheel runs it. */
const BANK_TAKEOVER_GRACE_MS = 31 * SECOND_MS;
