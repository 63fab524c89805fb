import type { BankGateway, CaptureResult, RefundResult } from "./gateway";
import type { BankRecord, BankReconciler, ReconcileRefund } from "./module";

// A reconciliation facet built from a bank's existing follow-up queries (docs/reconciliation.md):
// `captureStatus` for an order and `refundStatus` with the bank's own refund markers for a refund.
// Those answers say whether the bank approved, not how much, so a bank using this facet reports
// no amount (kasa's amount stands) and `amount_mismatch` needs a bank whose facet reads amounts.

/** The markers of a bank's `refundMarker`: how its `refundStatus` finds a void, and any credit at all. */
export interface RefundMarkers {
  void: string;
  /** A credit marker counting from zero credits: approved when the order shows any credit. */
  anyCredit: string;
}

const NO_RECORD = /no record|not found|bulunamad/i;

export function orderRecord(status: CaptureResult, amount: number | null): BankRecord {
  if (status.approved === null) return { status: "unknown", amount: null, reference: null };
  if (status.approved) return { status: "approved", amount, reference: status.bankReference, captureReference: status.bankReference };
  if (NO_RECORD.test(status.errMsg ?? "")) return { status: "none", amount: null, reference: null };
  return { status: /void|cancel|TRANS_STAT (V|CNCL)/i.test(status.errMsg ?? "") ? "voided" : "declined", amount: null, reference: null };
}

export function refundRecord(result: RefundResult, query: ReconcileRefund): BankRecord {
  if (result.status === "pending") return { status: "unknown", amount: null, reference: null };
  if (result.status === "declined") return { status: "none", amount: null, reference: null };
  return { status: query.method === "void" ? "voided" : "refunded", amount: null, reference: query.refundReference };
}

/** The facet of a bank with status and history queries but no amounts in their answers and no day list. */
export function statusReconciler(gateway: BankGateway, markers: RefundMarkers): BankReconciler {
  return {
    async order(query) {
      const input = { attemptId: query.attemptId, amount: query.amount, installment: query.installment, bankProfile: "" };
      const record = orderRecord(await settle(() => gateway.captureStatus(input)), null);
      // The protocol cannot tell whether the bank's end of day passed: a void is tried first, a credit after its refusal.
      return record.status === "approved" ? { ...record, voidable: true } : record;
    },
    async refund(query) {
      const marker = query.method === "void" ? markers.void : markers.anyCredit;
      const input = { bankReference: query.captureReference, refundReference: marker, nowMs: query.nowMs };
      const result = await settle(() => gateway.refundStatus(input));
      return "approved" in result ? orderRecord(result, null) : refundRecord(result, query);
    },
  };
}

/** A query that throws (a transport error the adapter did not catch) is an unknown answer, never a failed run. */
async function settle<T>(ask: () => Promise<T>): Promise<T | CaptureResult> {
  try {
    return await ask();
  } catch (error) {
    return { approved: null, detail: error instanceof Error ? error.message : String(error) };
  }
}
