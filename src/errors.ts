/**
 * THE error catalog: every code of docs/errors.md, API errors / Handoff-stage errors (the buyer's card step); docs/contract.md, Requests and authentication, with its HTTP
 * status and a default message. Callers' errors are thrown only as `fail(code, detail?)`;
 * anything else that escapes a handler is a bug and becomes a logged 500 `internal_error`.
 */
export const ERROR_CATALOG = {
  // docs/errors.md, API errors
  validation_error: [400, "The request failed validation."],
  sensitive_data_not_allowed: [400, "A free-text field looks like a card number or IBAN."],
  duplicate_partner_tx_code: [409, "This partnerTxCode belongs to a different request."],
  terminal_not_allowed: [403, "The terminal is not available to this account."],
  partner_not_active: [403, "The account is not accepting payments."],
  amount_limit_exceeded: [422, "The amount is outside the account's per-transaction limits."],
  pos_per_tx_limit_exceeded: [422, "The amount exceeds the bank connection's per-transaction limit."],
  pos_daily_limit_exceeded: [422, "The bank connection's daily limit is full."],
  pos_weekly_limit_exceeded: [422, "The bank connection's weekly limit is full."],
  pos_monthly_limit_exceeded: [422, "The bank connection's monthly limit is full."],
  pos_time_window_limit_exceeded: [422, "The bank connection's time-window limit is full."],
  installment_not_allowed: [422, "This installment count is not allowed."],
  payment_not_found: [404, "Payment not found."],
  payment_not_refundable: [422, "The payment is not in a refundable state."],
  refund_amount_exceeds_remaining: [422, "The refund exceeds the remaining refundable balance."],
  refund_not_yet_available: [422, "A partial refund is possible after day end."],
  refund_method_not_available: [422, "The forced refund method cannot apply to this payment."],
  refund_in_progress: [409, "A refund is pending for this payment, or the partnerRefundCode was used."],
  refund_not_found: [404, "Refund not found."],
  direct_refund_not_allowed: [422, "Only a same-day full void is possible on a direct-collection terminal."],
  payment_link_not_found: [404, "Payment link not found."],
  payment_link_already_paid: [409, "The payment link is already paid."],
  payment_link_expired: [409, "The payment link has expired."],
  payment_link_cancelled: [409, "The payment link is already cancelled."],
  payment_link_items_amount_mismatch: [422, "Item amounts do not sum to amount."],
  rate_limited: [429, "Too many requests."],
  service_overloaded: [503, "The service is at capacity; retry with exponential backoff."],
  // docs/errors.md, Handoff-stage errors (the buyer's card step)
  payment_ref_invalid: [404, "Unknown or invalid payment reference."],
  payment_ref_expired: [404, "The payment reference has expired."],
  payment_prepare_already_started: [409, "3D Secure already started for this payment reference."],
  card_attempt_limit_exceeded: [429, "The card attempt allowance is exhausted."],
  virtual_pos_inactive: [422, "The terminal's bank connection is inactive."],
  psp_inactive: [422, "The payment provider is inactive."],
  virtual_pos_card_type_not_supported: [422, "This card type is not supported here."],
  payment_declined: [422, "The bank declined the card."],
  // docs/contract.md, Requests and authentication
  unauthorized: [401, "Missing, malformed, unknown or revoked API key."],
  forbidden: [403, "Access denied."],
  not_found: [404, "No such endpoint."],
  method_not_allowed: [405, "Method not allowed on this endpoint."],
  request_too_large: [413, "The request body exceeds 64 KiB."],
  internal_error: [500, "Internal error."],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const statusOf = (code: ErrorCode): number => ERROR_CATALOG[code][0];

export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? ERROR_CATALOG[code][1]);
    this.status = statusOf(code);
  }
}

/** Throws the catalog error; `message` names the field and the rule when there is one (docs/contract.md, Requests and authentication). */
export function fail(code: ErrorCode, message?: string, headers?: Record<string, string>): never {
  throw new ApiError(code, message, headers);
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;
