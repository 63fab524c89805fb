import { isRefundMarker } from "../../bank/gateway";
import { toIso } from "../checks/istanbul-time";
import type { RefundRow } from "../../store/rows";

/** Interface 2.4, field for field. */
export type RefundJson = {
  refundId: string;
  method: string;
  status: string;
  amount: number;
  procReturnCode: string | null;
  authCode: string | null;
  errMsg: string | null;
  bankReference: string | null;
  createdAt: string;
  updatedAt: string;
};

/** Interface 2.4 creation response, shared by the three refund endpoints (product 16). */
export type RefundCreatedJson = { refundId: string; method: string; status: string };

export function toRefundJson(r: RefundRow): RefundJson {
  return {
    refundId: r.id,
    method: r.method,
    status: r.status,
    amount: r.amount,
    procReturnCode: r.procReturnCode,
    authCode: r.authCode,
    errMsg: r.errMsg,
    // A pending refund's marker (product 17) is kasa's note of what to ask the bank, not a reference.
    bankReference: isRefundMarker(r.bankReference) ? null : r.bankReference,
    createdAt: toIso(r.createdAtMs),
    updatedAt: toIso(r.updatedAtMs),
  };
}

export function toRefundCreatedJson(r: RefundRow): RefundCreatedJson {
  return { refundId: r.id, method: r.method, status: r.status };
}
