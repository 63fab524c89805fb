import type { Sensitive } from "../../sensitive";
import type { BankRecord, BankReconciler } from "../module";
import { toCaptureReference, toProfileOfCapture } from "./references";
import { toRefundResult } from "./refund-results";

// The simulated bank's reconciliation facet (docs/reconciliation.md). The bank keeps no table: its
// records are the references it minted, each an HMAC of what it charged, so it answers from them.
// A capture reference it minted for this attempt is an approved order of exactly the amount asked
// (the simulated bank charges what it is asked); a reference it did not mint is no record at all.

const NONE: BankRecord = { status: "none", amount: null, reference: null };

export function createSimReconciler(secret: Sensitive<string>): BankReconciler {
  return {
    order: async (query) => {
      const reference = query.bankReference;
      const profile = reference === null ? null : toProfileOfCapture(reference);
      if (reference === null || profile === null || reference !== toCaptureReference(secret, query.attemptId, profile)) return NONE;
      return { status: "approved", amount: query.amount, reference, captureReference: reference, voidable: true };
    },
    refund: async (query) => {
      const profile = toProfileOfCapture(query.captureReference);
      if (profile === null || query.refundReference === null) return NONE;
      const result = toRefundResult(secret, profile, query.refundReference, query.nowMs);
      if (result.status === "pending") return { status: "unknown", amount: null, reference: null };
      if (result.status === "declined") return NONE;
      return { status: query.method === "void" ? "voided" : "refunded", amount: query.amount, reference: query.refundReference };
    },
  };
}
