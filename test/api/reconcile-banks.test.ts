import { afterEach, describe, expect, it } from "vitest";
import { reconcileConnection } from "../../src/domain/reconciliation/run";
import { toRunJson } from "../../src/domain/reconciliation/view";
import type { Harness } from "../support/harness";
import { akbankHarness, payAtBank as akbankPay, txnCodeOf } from "./akbank-flow";
import { garantiHarness, payAtBank as garantiPay } from "./garanti-flow";
import { payflexHarness, payAtBank as payflexPay } from "./payflex-flow";
import { createPayment } from "./payments-flow";
import { APPROVE, posnetHarness, payAtBank as posnetPay } from "./posnet-flow";

// Reconciliation (docs/reconciliation.md): every real bank module brings its reconciliation with it, built on its own status
// and history queries; here each against its simulator: a captured payment and its same-day void
// are matched, and a bank that does not answer is unknown without failing the run. AkbankPos also
// lists the day's transactions, which finds an order kasa has no record of.

const DAY = "2026-11-20"; // the harness clock's Istanbul day

type Transport = (url: string, init: RequestInit, send: () => Promise<Response>) => Promise<Response>;

const BANKS: Array<{
  bank: string;
  connection: string;
  terminal: string;
  open: (transport: Transport) => Promise<Harness>;
  pay: (h: Harness, ref: string, pan: string) => Promise<{ leftTo?: string | null }>;
}> = [
  { bank: "garanti", connection: "vpos-garanti", terminal: "T-G3D", open: (transport) => garantiHarness({ transport }), pay: garantiPay },
  { bank: "posnet", connection: "vpos-posnet", terminal: "T-P3D", open: (transport) => posnetHarness({ transport }), pay: posnetPay },
  { bank: "akbank", connection: "vpos-akbank", terminal: "T-A3D", open: (transport) => akbankHarness({ transport }), pay: akbankPay },
  { bank: "payflex", connection: "vpos-pf", terminal: "T-PF", open: (transport) => payflexHarness({ transport }), pay: payflexPay },
];

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(BANKS)("product 26: the $bank module's reconciliation", ({ connection, terminal, open, pay }) => {
  let down = false;
  const transport: Transport = (_url, _init, send) => (down ? Promise.resolve(new Response("busy", { status: 503 })) : send());

  async function captured(k: Harness): Promise<string> {
    const r = await createPayment(k, { terminalId: terminal, amount: 10_000 });
    const done = await pay(k, r.json.paymentRef, APPROVE);
    if (!done.leftTo?.includes("status=captured")) throw new Error(`not captured: ${done.leftTo}`);
    return r.json.paymentCode as string;
  }

  it("a captured payment and its same-day void are matched", async () => {
    down = false;
    h = await open(transport);
    await captured(h);
    const voided = await captured(h);
    const refund = await h.post(`/v1/payments/${voided}/refunds/void`, { partnerRefundCode: "V-1" });
    expect(refund.json.status).toBe("approved");
    const r = await reconcileConnection(h.deps, connection, DAY);
    expect(toRunJson(r.run, r.findings)).toMatchObject({ findings: [], counts: { matched: 3 } });
  });

  it("the bank not answering: unknown, and the run completes", async () => {
    down = false;
    h = await open(transport);
    const code = await captured(h);
    down = true;
    const r = await reconcileConnection(h.deps, connection, DAY);
    // The payment's order is unknown (and, for a bank with a day list, the unread list too).
    expect(r.findings.filter((f) => f.paymentCode === code)).toMatchObject([{ class: "unknown", bankStatus: "unknown" }]);
    expect(r.findings.every((f) => f.class === "unknown")).toBe(true);
  });
});

describe("product 26: AkbankPos lists the day's transactions", () => {
  const AKBANK = BANKS.find((b) => b.bank === "akbank")!;
  const pass: Transport = (_url, _init, send) => send();

  it("the day's list holds only kasa's own orders: nothing not_in_kasa", async () => {
    h = await AKBANK.open(pass);
    const r1 = await createPayment(h, { terminalId: AKBANK.terminal, amount: 10_000 });
    await AKBANK.pay(h, r1.json.paymentRef, APPROVE);
    const r = await reconcileConnection(h.deps, AKBANK.connection, DAY);
    expect(JSON.parse(r.run.counts)).toMatchObject({ matched: 1, not_in_kasa: 0 });
  });

  it("bank_approved through a status-query facet: the sale's answer misread as a decline; voided once, and the next run finds it matched", async () => {
    let misread = true;
    const reached: string[] = [];
    h = await AKBANK.open(async (_url, init, send) => {
      const txnCode = txnCodeOf(init);
      reached.push(txnCode);
      const response = await send();
      if (txnCode !== "1000" || !misread) return response;
      misread = false;
      return new Response(JSON.stringify({ responseCode: "VPS-1005", responseMessage: "Red", hostResponseCode: "05" }), {
        headers: { "content-type": "application/json" },
      });
    });
    const r1 = await createPayment(h, { terminalId: AKBANK.terminal, amount: 10_000 });
    await AKBANK.pay(h, r1.json.paymentRef, APPROVE);
    expect((await h.store.q.payments.get(r1.json.paymentCode))?.status).toBe("failed");
    const r = await reconcileConnection(h.deps, AKBANK.connection, DAY);
    expect(r.findings).toMatchObject([
      { class: "bank_approved", paymentCode: r1.json.paymentCode, repairAction: "void", repairOutcome: "approved" },
    ]);
    expect(reached.filter((t) => t === "1003")).toHaveLength(1);
    const again = await reconcileConnection(h.deps, AKBANK.connection, DAY);
    expect(JSON.parse(again.run.counts)).toMatchObject({ matched: 1, bank_approved: 0 });
    expect(reached.filter((t) => t === "1003")).toHaveLength(1);
    expect((await h.store.q.payments.get(r1.json.paymentCode))?.status).toBe("failed");
  });

  it("not_in_kasa: an approved sale of the day kasa has no record of (a database restored from an older backup)", async () => {
    h = await AKBANK.open(pass);
    const r1 = await createPayment(h, { terminalId: AKBANK.terminal, amount: 12_345 });
    await AKBANK.pay(h, r1.json.paymentRef, APPROVE);
    const attemptId = (await h.store.q.attempts.byPayment(r1.json.paymentCode))[0]!.id;
    await h.store.q.fixtures.deletePayments();
    const r = await reconcileConnection(h.deps, AKBANK.connection, DAY);
    expect(toRunJson(r.run, r.findings).findings).toEqual([
      {
        class: "not_in_kasa",
        paymentCode: null,
        attemptId: null,
        refundId: null,
        kasa: { status: null, amount: null },
        bank: { status: "approved", amount: 12_345, reference: attemptId },
        repair: null,
      },
    ]);
    // Another day's list does not hold it.
    expect(JSON.parse((await reconcileConnection(h.deps, AKBANK.connection, "2026-11-19")).run.counts)).toMatchObject({ not_in_kasa: 0 });
  });
});
