import type { PaymentPageFilter } from "./rows-money";

// The store's reads behind the panel's dashboard and its payments filters (docs/panel.md,
// Dashboard): each figure is one query over the partner's own index ranges, whatever the number of
// payments. The words a merchant sees for these values live in src/panel/words.ts.

/**
 * Why a card attempt did not capture, read from what kasa records (docs/panel.md, How a failure
 * gets its reason): the attempt's status, the terminal it ended on, the payment's state and whether
 * the bank was asked to capture.
 */
export type PanelReason = "three_d_failed" | "declined" | "limits" | "abandoned";
export const PANEL_REASONS: readonly PanelReason[] = ["three_d_failed", "declined", "limits", "abandoned"];

/** A card attempt's outcome: captured, still under way, or failed for one of the reasons. */
export type AttemptOutcome = "captured" | "open" | PanelReason;

/** The panel's payments list: the operator's filter, plus the bank and the failure reason of an attempt. */
export type PanelPaymentFilter = PaymentPageFilter & {
  /** Payments with a card attempt on this bank (the member terminal's `bank`, else its connection). */
  bank?: string | null;
  /** Payments with a card attempt that failed for this reason. */
  reason?: PanelReason | null;
};

/** Captures of one Istanbul day (`dayStartMs` is its 00:00). */
export type CapturedDayRow = { dayStartMs: number; count: number; sum: number };

/** Card attempts of one bank with one outcome. */
export type OutcomeRow = { bank: string; outcome: AttemptOutcome; count: number };

/**
 * Money on its way to the partner for one value date: a pending payout batch (`batchId`; its
 * captures are not counted, a batch page lists them), or the captures no batch has taken yet
 * (`batchId` null, `count` of them; refunds are netted when the batch is made).
 */
export type PayoutDueRow = { valueDate: string; batchId: string | null; count: number | null; amount: number };

export interface PanelDashboardOps {
  /** Captures in [fromMs, toMs) per Istanbul day (`offsetMs` is Istanbul's offset from UTC), oldest first; empty days absent. */
  capturedByDay(partnerId: string, fromMs: number, toMs: number, offsetMs: number): Promise<CapturedDayRow[]>;
  /**
   * Card attempts made since `fromMs`, per bank and outcome. An attempt is made within its
   * payment's lifetime, so the payments read start at `createdAfterMs` (the partner's index range).
   */
  attemptOutcomes(partnerId: string, fromMs: number, createdAfterMs: number): Promise<OutcomeRow[]>;
  /** Approved refunds created since `fromMs`. */
  refundTotals(partnerId: string, fromMs: number): Promise<{ count: number; sum: number }>;
  /** Links a buyer can still pay at `nowMs`. */
  openLinks(partnerId: string, nowMs: number): Promise<{ count: number; sum: number }>;
  /** Pending payout batches and unbatched captures, by value date, earliest first. */
  payoutsDue(partnerId: string): Promise<PayoutDueRow[]>;
}
