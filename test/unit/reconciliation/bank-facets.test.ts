import { describe, expect, it } from "vitest";
import { toEstConfig } from "../../../src/bank/est/config";
import { createEstReconciler } from "../../../src/bank/est/reconcile";
import { estSimulatorSettings } from "../../../src/bank/est/sim/settings";
import { createSimReconciler } from "../../../src/bank/sim/reconcile";
import { newRefundReference, toCaptureReference } from "../../../src/bank/sim/references";
import { orderRecord } from "../../../src/bank/status-reconciler";
import { Sensitive } from "../../../src/sensitive";

// Reconciliation (docs/reconciliation.md): what each bank module's reconciliation facet makes of its bank's answers.

const NOW = Date.parse("2026-03-02T09:00:00Z");
const order = { attemptId: "att-1", amount: 10_000, installment: 1, nowMs: NOW };

describe("the simulated bank answers from the references it minted", () => {
  const secret = new Sensitive("sim_secret_for_the_facet_tests_0123456789");
  const sim = createSimReconciler(secret);
  const minted = toCaptureReference(secret, "att-1", "approve");

  it.each([
    [
      "a capture reference it minted for this attempt: approved, of the amount asked",
      minted,
      { status: "approved", amount: 10_000, reference: minted, voidable: true },
    ],
    ["one minted for another attempt: no record", toCaptureReference(secret, "att-2", "approve"), { status: "none" }],
    [
      "one another secret minted: no record",
      toCaptureReference(new Sensitive("another_secret_0123456789abcdef"), "att-1", "approve"),
      { status: "none" },
    ],
    ["no capture reference at all (kasa never captured): no record", null, { status: "none" }],
  ] as const)("%s", async (_name, bankReference, expected) => {
    expect(await sim.order({ ...order, bankReference })).toMatchObject(expected);
  });

  it.each([
    ["a credit of an approving card", "approve", "credit", { status: "refunded", amount: 4_000 }],
    ["a void of an approving card", "approve", "void", { status: "voided", amount: 4_000 }],
    ["a refund of the declining card", "refund_declined", "credit", { status: "none" }],
    ["a refund of the pending card, before its time", "refund_pending", "credit", { status: "unknown" }],
  ] as const)("%s", async (_name, profile, method, expected) => {
    const captureReference = toCaptureReference(secret, "att-1", profile);
    const refundReference = newRefundReference(method === "void" ? "void" : "refund", NOW);
    expect(await sim.refund({ captureReference, refundReference, method, amount: 4_000, nowMs: NOW })).toMatchObject(expected);
  });
});

const xml = (body: string) => `<?xml version="1.0" encoding="ISO-8859-9"?><CC5Response>${body}</CC5Response>`;
const status = (stat: string, amount = "10000") =>
  xml(
    `<ErrMsg>Record(s) found for att-1</ErrMsg><ProcReturnCode>00</ProcReturnCode><Extra><TRANS_STAT>${stat}</TRANS_STAT><CAPTURE_AMT>${amount}</CAPTURE_AMT><HOST_REF_NUM>612345678901</HOST_REF_NUM><PROC_RET_CD>00</PROC_RET_CD></Extra>`,
  );
const history = (...lines: string[]) =>
  xml(
    `<ErrMsg>Record(s) found for att-1</ErrMsg><ProcReturnCode>00</ProcReturnCode><Extra><TRXCOUNT>${lines.length}</TRXCOUNT>${lines.map((l, i) => `<TRX${i + 1}>${l}</TRX${i + 1}>`).join("")}</Extra>`,
  );
const trx = (type: string, stat: string, amount: number, hostRef: string) =>
  [type, stat, amount, amount, "2026-03-02 12:00:00.000", "", "", hostRef, "123456", "00", "T1"].join("\t");
const NO_RECORD = xml("<ErrMsg>No record found for att-1</ErrMsg><ProcReturnCode>99</ProcReturnCode>");

describe("EST reads ORDERSTATUS and ORDERHISTORY", () => {
  const est = (answer: string | null) =>
    createEstReconciler(toEstConfig(estSimulatorSettings("https://bank.test", "3d", 300)), {
      fetch: async () =>
        answer === null ? new Response("busy", { status: 503 }) : new Response(answer, { headers: { "content-type": "text/xml" } }),
    });

  it.each([
    [
      "A (today): approved, a void still cancels it",
      status("A"),
      { status: "approved", amount: 10_000, reference: "612345678901", captureReference: "att-1", voidable: true },
    ],
    [
      "S (after the bank's end of day): approved, only a credit reverses it",
      status("S", "9000"),
      { status: "approved", amount: 9_000, voidable: false },
    ],
    ["V: voided", status("V"), { status: "voided" }],
    ["D: declined", status("D"), { status: "declined" }],
    ["No record found: none", NO_RECORD, { status: "none", amount: null }],
    ["HTTP 503: unknown", null, { status: "unknown", amount: null, reference: null }],
    ["PN (pending): unknown", status("PN"), { status: "unknown" }],
  ] as const)("ORDERSTATUS %s", async (_name, answer, expected) => {
    expect(await est(answer).order({ ...order, bankReference: null })).toMatchObject(expected);
  });

  const credit = { captureReference: "att-1", method: "credit" as const, amount: 4_000, nowMs: NOW };
  it.each([
    [
      "the credit with the refund's HostRefNum",
      history(trx("S", "S", 10_000, "1"), trx("C", "S", 4_000, "2")),
      "2",
      { status: "refunded", amount: 4_000, reference: "2" },
    ],
    ["no credit with that HostRefNum: none", history(trx("S", "S", 10_000, "1"), trx("C", "S", 4_000, "2")), "3", { status: "none" }],
    [
      "no reference of its own: any credit of the order",
      history(trx("S", "S", 10_000, "1"), trx("C", "S", 10_000, "2")),
      null,
      { status: "refunded", amount: 10_000 },
    ],
    ["a declined credit line does not count", history(trx("S", "S", 10_000, "1"), trx("C", "D", 4_000, "2")), "2", { status: "none" }],
    ["no record of the order: none", NO_RECORD, "2", { status: "none" }],
    ["no answer: unknown", null, "2", { status: "unknown" }],
  ] as const)("ORDERHISTORY: %s", async (_name, answer, refundReference, expected) => {
    expect(await est(answer).refund({ ...credit, refundReference })).toMatchObject(expected);
  });

  it("a void is found by ORDERSTATUS showing the order voided", async () => {
    const q = { ...credit, method: "void" as const, refundReference: "HR9" };
    expect(await est(status("V")).refund(q)).toMatchObject({ status: "voided", reference: "HR9" });
    expect(await est(status("A")).refund(q)).toMatchObject({ status: "none" });
  });
});

describe("a bank without amounts in its status answers (the generic facet)", () => {
  it.each([
    [{ approved: true, authCode: "1", bankReference: "R1" } as const, { status: "approved", amount: null, captureReference: "R1" }],
    [{ approved: false, reason: "declined", errMsg: "no record at the bank" } as const, { status: "none" }],
    [{ approved: false, reason: "declined", errMsg: "TRANS_STAT V" } as const, { status: "voided" }],
    [{ approved: false, reason: "declined", errMsg: "05: Red" } as const, { status: "declined" }],
    [{ approved: null, detail: "timeout" } as const, { status: "unknown" }],
  ])("%o -> %o", (answer, expected) => {
    expect(orderRecord(answer, null)).toMatchObject(expected);
  });
});
