import type { Sensitive } from "../../sensitive";
import type { RefundResult } from "../gateway";
import { toAuthCode, toRefundRequestedAtMs } from "./references";
import { SIM_REFUND_PENDING_MS } from "./sim-limits";
import type { SimProfile } from "../test-cards";

/**
 * Refund and void answers of the simulated bank, computed from the capture's profile and the
 * refund reference alone, so asking again after a restart gives the same answer.
 * Return codes follow the common Turkish POS convention: "00" approved, "05" declined by the
 * issuer, "99" an error on the request itself.
 */

export const unknownReference = (): RefundResult => ({
  status: "declined",
  procReturnCode: "99",
  authCode: null,
  errMsg: "Unknown bank reference",
  bankReference: null,
  nextCheckAtMs: null,
});

const approved = (secret: Sensitive<string>, reference: string): RefundResult => ({
  status: "approved",
  procReturnCode: "00",
  authCode: toAuthCode(secret, reference),
  errMsg: null,
  bankReference: reference,
  nextCheckAtMs: null,
});

/**
 * Card 4000001500000005 declines every refund and void; 5400001300000000 keeps them pending for
 * SIM_REFUND_PENDING_MS from the request, then approves (docs/checkout.md). Voids follow the same rules as
 * credit refunds: a same-day refund in the sandbox is a void (docs/contract.md, Refunds), and these cards exist to
 * let integrators see `pending` and `declined` without waiting for day end.
 */
export const toRefundResult = (secret: Sensitive<string>, profile: SimProfile, reference: string, nowMs: number): RefundResult => {
  const requestedAtMs = toRefundRequestedAtMs(reference);
  if (requestedAtMs === null) return unknownReference();
  switch (profile) {
    case "approve":
      return approved(secret, reference);
    case "refund_declined":
      return {
        status: "declined",
        procReturnCode: "05",
        authCode: null,
        errMsg: "Refund declined by the issuer",
        bankReference: reference,
        nextCheckAtMs: null,
      };
    case "refund_pending": {
      const dueAtMs = requestedAtMs + SIM_REFUND_PENDING_MS;
      if (nowMs >= dueAtMs) return approved(secret, reference);
      return { status: "pending", procReturnCode: null, authCode: null, errMsg: null, bankReference: reference, nextCheckAtMs: dueAtMs };
    }
    default:
      // Captures of the other profiles are refused, so no reference of theirs can be genuine.
      return unknownReference();
  }
};
