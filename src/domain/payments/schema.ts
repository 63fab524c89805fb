import * as v from "valibot";
import { DESCRIPTION_MAX_CHARS, PARTNER_TX_CODE_MAX_CHARS, TERMINAL_ID_MAX_CHARS, URL_MAX_CHARS } from "../../limits";

// Shape of `POST /v1/payments` (docs/contract.md, Create a payment / Identifiers and formats / Requests and authentication; docs/decisions.md, Readings of the contract). Everything here is a 400
// `validation_error` naming the field; rules that need the partner or the terminal (returnUrl
// hosts, terminal, limits, installment set, idempotency) live in create.ts.

const string = (max: number) =>
  v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"), v.maxLength(max, `must be at most ${max} characters`));

export const createPaymentBody = v.strictObject({
  // docs/contract.md, Create a payment: positive; docs/contract.md, Identifiers and formats: a safe integer.
  amount: v.pipe(v.number("must be an integer"), v.safeInteger("must be a safe integer"), v.minValue(1, "must be >= 1")),
  partnerTxCode: string(PARTNER_TX_CODE_MAX_CHARS),
  terminalId: string(TERMINAL_ID_MAX_CHARS),
  // Absent and null both mean 1, a single charge (docs/contract.md, Create a payment); docs/decisions.md, Readings of the contract: >= 1.
  installment: v.nullish(v.pipe(v.number("must be an integer"), v.safeInteger("must be an integer"), v.minValue(1, "must be >= 1"))),
  description: v.nullish(
    v.pipe(v.string("must be a string"), v.maxLength(DESCRIPTION_MAX_CHARS, `must be at most ${DESCRIPTION_MAX_CHARS} characters`)),
  ),
  // The host rules need the partner's list, so create.ts checks it with checkRedirectUrl.
  returnUrl: string(URL_MAX_CHARS),
});

export type CreatePaymentBody = v.InferOutput<typeof createPaymentBody>;

/** `GET /v1/payments?partnerTxCode=` (docs/contract.md, Read a payment): required, same bounds as on create. */
export const txCodeQuery = v.strictObject({ partnerTxCode: string(PARTNER_TX_CODE_MAX_CHARS) });
