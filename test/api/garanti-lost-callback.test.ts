import { afterEach, describe, expect, it } from "vitest";
import { createGarantiSimulator } from "../../src/bank/garanti/sim/simulator";
import { GARANTI_SIM_ACCOUNT } from "../../src/bank/garanti/sim/accounts";
import { formClient } from "../../src/http/sandbox/form-client";
import { SECOND_MS, THREE_D_WINDOW_STANDARD_MS } from "../../src/limits";
import { kasaProcess, type KasaProcess } from "../support/kasa-process";
import { useRestartRig, type RestartFiles } from "../support/restart-rig";
import { BANK, buyerOf, callbackOf, GARANTI_SEED, type GarantiHarness, garantiHarness, garantiPayment } from "./garanti-flow";
import { BASE, cardFields, eventsOf } from "./payments-flow";

// Issue 31: a buyer is never charged for a payment kasa shows expired. On the 3D_PAY
// model Garanti charges at its gate; when the buyer closes the window after that, no callback
// ever comes. The payment's expiry asks the bank (`orderinq`) at once and voids an approval. The
// simulator's `.96` fault plays exactly that buyer: approved at the gate, then gone.

const APPROVE = "4000001100000009";
const INSUFFICIENT = "4000009900000004";
const LOST = 10_096; // 100.96 TL: the `.96` fault

let h: GarantiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const statusOf = async (code: string) => (await h!.store.q.payments.get(code))?.status;
const attemptOf = async (code: string) => (await h!.store.q.attempts.byPayment(code))[0]!;

/** The buyer reaches the bank's gate (a 3D_PAY gate decides and charges there), then closes the window. */
async function leaveAtGate(k: GarantiHarness, paymentCode: string, pan: string): Promise<string> {
  const payment = await k.store.q.payments.get(paymentCode);
  await callbackOf(k, payment!.paymentRef!, pan);
  return (await k.store.q.attempts.byPayment(paymentCode))[0]!.id;
}

describe("product 26: a Garanti 3D_PAY attempt whose callback never came is asked about at expiry, and voided if approved", () => {
  it("the .96 buyer: approved at the gate, never back; the expiry asks orderinq and voids it; the payment stays expired", async () => {
    h = await garantiHarness();
    const { paymentCode, paymentRef } = await garantiPayment(h, "T-GPAY", LOST);
    const out = await buyerOf(h).post(`${BASE}/handoff`, cardFields(paymentRef, APPROVE));
    expect(out.page?.body ?? "").toContain("garanti-sim-lost");
    expect(await statusOf(paymentCode)).toBe("initiated");
    expect(h.sent).toEqual([]);
    await h.advance(THREE_D_WINDOW_STANDARD_MS);
    expect(await statusOf(paymentCode)).toBe("expired");
    expect(h.sent).toEqual(["orderinq", "void"]);
    const attempt = await attemptOf(paymentCode);
    expect(await h.store.q.bank.check(attempt.id)).toMatchObject({ kind: "void", outcome: "voided", dueAtMs: null });
    expect(await eventsOf(h, paymentCode)).toEqual(["payment.expired"]);
  });

  it("a card the gate declined and a buyer who never came back: orderinq only, no void", async () => {
    h = await garantiHarness();
    const { paymentCode } = await garantiPayment(h, "T-GPAY", 10_000);
    const attemptId = await leaveAtGate(h, paymentCode, INSUFFICIENT);
    await h.advance(THREE_D_WINDOW_STANDARD_MS);
    expect(await statusOf(paymentCode)).toBe("expired");
    expect(h.sent).toEqual(["orderinq"]);
    expect(await h.store.q.bank.check(attemptId)).toMatchObject({ kind: "resolve", outcome: "failed", dueAtMs: null });
  });

  it("a 3d model attempt left at the bank's page: nothing was charged there, nothing is asked", async () => {
    h = await garantiHarness();
    const { paymentCode } = await garantiPayment(h, "T-G3D", 10_000);
    const attemptId = await leaveAtGate(h, paymentCode, APPROVE);
    await h.advance(THREE_D_WINDOW_STANDARD_MS);
    expect(await statusOf(paymentCode)).toBe("expired");
    expect(h.sent).toEqual([]);
    expect(await h.store.q.bank.check(attemptId)).toBeUndefined();
  });

  it("no answer to orderinq: asked again later, never voided blindly; the answer then voids", async () => {
    let down = true;
    h = await garantiHarness({
      transport: (_url, _init, send) => (down ? Promise.resolve(new Response("busy", { status: 503 })) : send()),
    });
    const { paymentCode } = await garantiPayment(h, "T-GPAY", 10_000);
    await leaveAtGate(h, paymentCode, APPROVE);
    await h.advance(THREE_D_WINDOW_STANDARD_MS);
    expect(h.sent).toEqual(["orderinq"]);
    down = false;
    await h.advance(30 * SECOND_MS);
    expect(h.sent).toEqual(["orderinq", "orderinq", "void"]);
    expect(await statusOf(paymentCode)).toBe("expired");
  });
});

describe("product 26: a restart between the expiry and the void (Garanti)", () => {
  let files: RestartFiles;
  const rig = useRestartRig<KasaProcess>("kasa-garanti-lost-", (f) => {
    files = f;
  });

  it("the next process finds the open question in the database, asks orderinq and voids; the charge is voided once", async () => {
    const sim = createGarantiSimulator({
      accounts: [GARANTI_SIM_ACCOUNT],
      nowMs: () => files.clock.nowMs(),
      nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
    });
    let answer = false;
    // Until the restart the bank's API never answers (the adapter gives up at its timeout).
    const hang = (signal: AbortSignal | null | undefined) =>
      new Promise<Response>((_resolve, reject) => signal?.addEventListener("abort", () => reject(signal.reason)));
    const fetch = async (_url: string, init: RequestInit): Promise<Response> =>
      answer ? sim.api(new Request(`${BANK}/sim-garanti/VPServlet`, { method: "POST", body: init.body as BodyInit })) : hang(init.signal);
    const open = async (seed: boolean) =>
      rig.track(await kasaProcess({ path: files.path, clock: files.clock, seed: seed ? GARANTI_SEED : undefined, bankFetch: fetch }));
    const first = await open(true);
    const created = await first.post("/v1/payments", {
      amount: LOST,
      partnerTxCode: "lost-g1",
      terminalId: "T-GPAY",
      returnUrl: "https://shop.example/r",
    });
    const code = created.json.paymentCode as string;
    const route = (url: string, init: RequestInit) =>
      url.startsWith(BANK) ? sim.gate(new Request(url, init)) : Promise.resolve(first.runtime.app.request(url, init));
    const out = await formClient(route, [BASE, BANK]).post(`${BASE}/handoff`, cardFields(created.json.paymentRef, APPROVE));
    expect(out.page?.body ?? "").toContain("garanti-sim-lost");
    await first.advance(THREE_D_WINDOW_STANDARD_MS);
    expect((await first.store.q.payments.get(code))?.status).toBe("expired");
    expect(sim.calls()).toEqual([]);
    await rig.stop(first);

    answer = true;
    const second = await open(false);
    await second.advance(31 * SECOND_MS);
    expect(sim.calls().map((c) => c.type)).toEqual(["orderinq", "void"]);
    const attempt = (await second.store.q.attempts.byPayment(code))[0]!;
    expect(await second.store.q.bank.check(attempt.id)).toMatchObject({ kind: "void", outcome: "voided" });
    expect((await second.store.q.payments.get(code))?.status).toBe("expired");
  });
});
