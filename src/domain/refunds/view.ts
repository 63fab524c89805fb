import { isRefundMarker } from "../../bank/gateway";
import { toIso } from "../../iso-time";
import type { RefundRow } from "../../store/rows-money";

/** docs/contract.md, The refund record, field for field. */
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

/** docs/contract.md#the-refund-record creation response, shared by the three refund endpoints (docs/decisions.md, Readings of the contract). */
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
    // A pending refund's marker (docs/banks.md) is kasa's note of what to ask the bank, not a reference.
    bankReference: isRefundMarker(r.bankReference) ? null : r.bankReference,
    createdAt: toIso(r.createdAtMs),
    updatedAt: toIso(r.updatedAtMs),
  };
}

export function toRefundCreatedJson(r: RefundRow): RefundCreatedJson {
  return { refundId: r.id, method: r.method, status: r.status };
}
