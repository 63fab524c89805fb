import * as v from "valibot";
import { PARTNER_REFUND_CODE_MAX_CHARS } from "../../limits";

// Shape of the three refund bodies (docs/contract.md, Refunds; docs/decisions.md, Readings of the contract: one body for all three).
// Everything here is a 400 `validation_error` naming the field; business rules live in rules.ts.

export const refundBody = v.strictObject({
  // Absent and null both mean the whole remainder (docs/decisions.md, Readings of the contract); docs/contract.md, Identifiers and formats: a safe integer.
  amount: v.nullish(v.pipe(v.number("must be an integer"), v.safeInteger("must be a safe integer"), v.minValue(1, "must be >= 1"))),
  partnerRefundCode: v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(PARTNER_REFUND_CODE_MAX_CHARS, `must be at most ${PARTNER_REFUND_CODE_MAX_CHARS} characters`),
  ),
});

export type RefundBody = v.InferOutput<typeof refundBody>;
