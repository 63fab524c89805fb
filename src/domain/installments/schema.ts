import * as v from "valibot";
import { BIN_DIGITS, SHARE_BPS_MAX, TERMINAL_ID_MAX_CHARS } from "../../limits";

// Request shapes of docs/contract.md, Options for a card / The overview (limits of docs/contract.md, Limits). Shape only: whether the
// terminal is the caller's and the card may be used there are business rules (service.ts).

/** docs/contract.md, Options for a card: a string of exactly 8 digits; a number or a longer prefix is 400, not trimmed. */
export const binField = v.pipe(v.string(), v.regex(new RegExp(`^[0-9]{${BIN_DIGITS}}$`), `must be exactly ${BIN_DIGITS} digits`));

/**
 * docs/contract.md, Options for a card: blank or missing is 400. Terminal ids are operator-chosen and at most
 * TERMINAL_ID_MAX_CHARS long (the seed enforces it), so a longer string is a malformed request.
 */
export const terminalIdField = v.pipe(
  v.string(),
  v.check((value) => value.trim() !== "", "must not be blank"),
  v.maxLength(TERMINAL_ID_MAX_CHARS, `must be at most ${TERMINAL_ID_MAX_CHARS} characters`),
);

/** docs/contract.md, Options for a card / Limits / Identifiers and formats: an integer >= 1 that is a safe integer; null is the same as absent. */
const baseAmountField = v.nullish(v.pipe(v.number(), v.safeInteger("must be a safe integer"), v.minValue(1, "must be >= 1")));

/**
 * docs/contract.md, Limits: 0-10000, checked even without `baseAmount` (where it changes nothing), so a wrong
 * value never passes silently. Null is the same as absent: the terminal's default applies.
 */
const shareField = v.nullish(
  v.pipe(
    v.number(),
    v.integer("must be an integer"),
    v.minValue(0, `must be between 0 and ${SHARE_BPS_MAX}`),
    v.maxValue(SHARE_BPS_MAX, `must be between 0 and ${SHARE_BPS_MAX}`),
  ),
);

export const installmentOptionsBody = v.strictObject({
  bin: binField,
  terminalId: terminalIdField,
  baseAmount: baseAmountField,
  customerCommissionShareBps: shareField,
});

export const installmentOverviewBody = v.strictObject({
  terminalId: terminalIdField,
  baseAmount: baseAmountField,
  customerCommissionShareBps: shareField,
});

export type InstallmentOptionsBody = v.InferOutput<typeof installmentOptionsBody>;
export type InstallmentOverviewBody = v.InferOutput<typeof installmentOverviewBody>;
