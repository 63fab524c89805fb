import type { ErrorCode } from "../../errors";
import type { LinkStatus } from "../../store/rows";

// docs/contract.md#link-states as data. Every status change of a link goes through `nextLinkStatus`, and the
// store's conditional updates take their `from` lists from this table, so the table is the one
// place where a transition can be allowed.

export type { LinkStatus };

export const LINK_STATUSES = [
  "pending",
  "launched",
  "initiated",
  "completed",
  "expired",
  "failed",
  "cancelled",
] as const satisfies readonly LinkStatus[];

/** docs/contract.md, Link states: the states a link can still leave; `failed` is not terminal. */
export const OPEN_LINK_STATUSES = ["pending", "launched", "initiated", "failed"] as const satisfies readonly LinkStatus[];

/** docs/contract.md, Link states: terminal states. */
export const TERMINAL_LINK_STATUSES = ["completed", "expired", "cancelled"] as const satisfies readonly LinkStatus[];

type Transition = { from: readonly LinkStatus[]; to: LinkStatus };

/** docs/contract.md, Link states, row by row. */
export const LINK_TRANSITIONS = {
  /** (none) -> pending: `POST /v1/payment-links`; no state precedes it. */
  create: { from: [], to: "pending" },
  /** pending -> launched: the buyer opens the link (docs/checkout.md, Payment link pages: the first open). */
  open: { from: ["pending"], to: "launched" },
  /** launched -> initiated and failed -> initiated: a payment attempt enters 3D Secure. */
  "attempt-start": { from: ["launched", "failed"], to: "initiated" },
  /** initiated -> failed: the attempt fails without completing; the link is payable again. */
  "attempt-fail": { from: ["initiated"], to: "failed" },
  /** launched or initiated or failed -> completed: capture approved (webhook payment_link.completed). */
  complete: { from: ["launched", "initiated", "failed"], to: "completed" },
  /** any non-terminal state -> expired: `expiresAt` passed (webhook payment_link.expired). */
  expire: { from: OPEN_LINK_STATUSES, to: "expired" },
  /** pending, launched, initiated, failed -> cancelled: `DELETE /v1/payment-links/{id}`. */
  cancel: { from: OPEN_LINK_STATUSES, to: "cancelled" },
} as const satisfies Record<string, Transition>;

export type LinkEvent = keyof typeof LINK_TRANSITIONS;

export const LINK_EVENTS = Object.keys(LINK_TRANSITIONS) as LinkEvent[];

/** The state `event` moves a link in `status` to, or null when 3.1 has no such row. */
export function nextLinkStatus(status: LinkStatus, event: LinkEvent): LinkStatus | null {
  const t: Transition = LINK_TRANSITIONS[event];
  return t.from.includes(status) ? t.to : null;
}

export const isOpenLinkStatus = (status: LinkStatus): boolean => (OPEN_LINK_STATUSES as readonly LinkStatus[]).includes(status);

/** docs/contract.md#link-states last row: a DELETE in a terminal state leaves it unchanged and answers 409. */
export const CANCEL_REFUSALS = {
  completed: "payment_link_already_paid",
  expired: "payment_link_expired",
  cancelled: "payment_link_cancelled",
} as const satisfies Record<(typeof TERMINAL_LINK_STATUSES)[number], ErrorCode>;

/** The 409 for a DELETE of a link in a terminal state; null for a state that can still be cancelled. */
export function cancelRefusalOf(status: LinkStatus): ErrorCode | null {
  return Object.hasOwn(CANCEL_REFUSALS, status) ? CANCEL_REFUSALS[status as keyof typeof CANCEL_REFUSALS] : null;
}
