import * as v from "valibot";
import {
  DESCRIPTION_MAX_CHARS,
  ITEM_NAME_MAX_CHARS,
  ITEM_NOTE_MAX_CHARS,
  LINK_ALLOWED_COUNTS_MAX_ENTRIES,
  LINK_AMOUNT_MIN,
  LINK_ITEMS_MAX,
  LINK_ITEMS_MIN,
  PAYER_NAME_MAX_CHARS,
  SHARE_BPS_MAX,
  TERMINAL_ID_MAX_CHARS,
  URL_MAX_CHARS,
} from "../../limits";

// Shape of `POST /v1/payment-links` (docs/contract.md, Create a link / Items and payerName / Limits). Everything here is a 400
// `validation_error` naming the field; rules that need the partner or the terminal (redirect
// hosts, sensitive data, terminal ownership, installment subset, item sum) live in service.ts.

/**
 * Lengths count Unicode code points, not UTF-16 units, so a name of 120 emoji or Turkish
 * letters is as long as one of 120 ASCII letters.
 */
const maxChars = (n: number) => v.check<string, string>((s) => codePointLength(s) <= n, `must be at most ${n} characters`);

function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n += 1;
  return n;
}

/** Amounts are safe integers (docs/contract.md, Identifiers and formats) of at least 1 (docs/decisions.md, Readings of the contract: link amount >= 1). */
const amount = v.pipe(
  v.number("must be an integer"),
  v.safeInteger("must be a safe integer"),
  v.minValue(LINK_AMOUNT_MIN, `must be >= ${LINK_AMOUNT_MIN}`),
);

const text = (max: number) => v.pipe(v.string("must be a string"), maxChars(max));

/** docs/contract.md#items-and-payername display item. */
const item = v.strictObject({
  name: v.pipe(v.string("must be a string"), v.minLength(1, "must not be empty"), maxChars(ITEM_NAME_MAX_CHARS)),
  note: v.nullish(text(ITEM_NOTE_MAX_CHARS)),
  amount,
});

export const createLinkBody = v.strictObject({
  amount,
  terminalId: v.pipe(
    v.string("must be a string"),
    v.minLength(1, "must not be empty"),
    v.maxLength(TERMINAL_ID_MAX_CHARS, `must be at most ${TERMINAL_ID_MAX_CHARS} characters`),
  ),
  // Absent and null both mean the default 0 (docs/contract.md, Create a link).
  customerCommissionShareBps: v.nullish(
    v.pipe(
      v.number("must be an integer"),
      v.integer("must be an integer"),
      v.minValue(0, "must be >= 0"),
      v.maxValue(SHARE_BPS_MAX, `must be <= ${SHARE_BPS_MAX}`),
    ),
  ),
  description: v.nullish(text(DESCRIPTION_MAX_CHARS)),
  // The URL rules of 4.1.1 need the partner's host list; service.ts applies them.
  redirectUrl: v.nullish(text(URL_MAX_CHARS)),
  // Any integers pass here: an empty list or a count outside the terminal's set is 422
  // installment_not_allowed (docs/contract.md#create-a-link and docs/contract.md#why-an-installment-count-is-refused reason 4), not a shape error. The entry bound
  // only keeps the request finite; duplicates are allowed and folded.
  allowedInstallmentCounts: v.nullish(
    v.pipe(
      v.array(v.pipe(v.number("must be an integer"), v.safeInteger("must be an integer"))),
      v.maxLength(LINK_ALLOWED_COUNTS_MAX_ENTRIES, `must have at most ${LINK_ALLOWED_COUNTS_MAX_ENTRIES} entries`),
    ),
  ),
  // null means none sent; an empty list is 400 (docs/contract.md, Items and payerName).
  items: v.nullish(
    v.pipe(
      v.array(item, "must be an array"),
      v.minLength(LINK_ITEMS_MIN, "must not be empty"),
      v.maxLength(LINK_ITEMS_MAX, `must have at most ${LINK_ITEMS_MAX} entries`),
    ),
  ),
  payerName: v.nullish(text(PAYER_NAME_MAX_CHARS)),
});

export type CreateLinkInput = v.InferOutput<typeof createLinkBody>;
