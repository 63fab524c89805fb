import type { BankFormFields } from "../../bank/gateway";
import type { ErrorCode } from "../../errors";

/**
 * A refusal at the handoff stage (interface 7.3, 7.5; product 6). `shown` false makes the page
 * generic, without the code: connection limits and card-type rejections (product 16). The HTTP
 * status is the code's catalog status either way.
 */
export type HandoffRefusal = { kind: "refused"; code: ErrorCode; shown: boolean };

/** The bank's 3D form, to be auto-submitted to the ACS (product 6.3). */
/** `gateOrigin`: the adapter's gate, the only CSP form-action source of the page that posts it (product 17). */
export type BankForm = { kind: "bank-form"; action: string; fields: BankFormFields; gateOrigin: string };

export type HandoffResult = BankForm | HandoffRefusal;

export const refuse = (code: ErrorCode, shown = true): HandoffRefusal => ({ kind: "refused", code, shown });

/** What the callback ends in: the 303 to returnUrl, or a rejection page that changed nothing. */
export type CallbackOutcome =
  | { kind: "redirect"; location: string; paymentCode: string; status: "captured" | "failed" | "initiated" }
  | { kind: "rejected" };
