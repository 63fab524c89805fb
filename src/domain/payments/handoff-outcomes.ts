import type { BankFormFields } from "../../bank/gateway";
import type { ErrorCode } from "../../errors";

/**
 * A refusal at the handoff stage (docs/errors.md, Handoff-stage errors (the buyer's card step); docs/contract.md, Connection limits; docs/checkout.md). `shown` false makes the page
 * generic, without the code: connection limits and card-type rejections (docs/decisions.md, Readings of the contract). The HTTP
 * status is the code's catalog status either way.
 */
export type HandoffRefusal = { kind: "refused"; code: ErrorCode; shown: boolean };

/** The bank's 3D form, to be auto-submitted to the ACS (docs/checkout.md, The bank's 3D page). */
/** `gateOrigin`: the adapter's gate, the only CSP form-action source of the page that posts it (docs/banks.md). */
export type BankForm = { kind: "bank-form"; action: string; fields: BankFormFields; gateOrigin: string };

export type HandoffResult = BankForm | HandoffRefusal;

export const refuse = (code: ErrorCode, shown = true): HandoffRefusal => ({ kind: "refused", code, shown });

/** What the callback ends in: the 303 to returnUrl, or a rejection page that changed nothing. */
export type CallbackOutcome =
  | { kind: "redirect"; location: string; paymentCode: string; status: "captured" | "failed" | "initiated" }
  | { kind: "rejected" };
