import type { AuditRow, LoginFailureRow, PanelSessionRow, PanelUserRow } from "./rows";
import type { PaymentSummaryRow } from "./rows-money";
import type { PanelDashboardOps, PanelPaymentFilter } from "./panel-dashboard-ops";

// The store interface's operations for the merchant panel: users, sessions, login failures, the
// audit log and the panel's listings (store.ts).

export interface PanelUsersOps {
  byEmail(email: string): Promise<PanelUserRow | undefined>;
  get(id: string): Promise<PanelUserRow | undefined>;
  /** null lists every partner's users (the operator CLI); the panel always passes its partner. */
  list(partnerId: string | null): Promise<PanelUserRow[]>;
  insert(u: PanelUserRow): Promise<void>;
  setStatus(id: string, status: "active" | "disabled", atMs: number): Promise<boolean>;
  /** A new password also clears the lock, so an operator's reset is the way out of one. */
  setPassword(id: string, hash: string, atMs: number): Promise<boolean>;
}

export interface PanelSessionsOps {
  get(idHash: string): Promise<PanelSessionRow | undefined>;
  insert(s: PanelSessionRow): Promise<void>;
  touch(idHash: string, atMs: number): Promise<{ changes: number }>;
  remove(idHash: string): Promise<boolean>;
  /** Disabling a user or resetting a password ends every session they have. */
  removeForUser(userId: string): Promise<number>;
}

/** Panel password checks that did not succeed, counted before the hash runs (docs/panel.md, Getting in). */
export interface LoginFailuresOps {
  /** Makes units counting one address take turns (PostgreSQL; SQLite's one writer already does). */
  lock(email: string): Promise<void>;
  /** The address's failures at or after `sinceMs`, newest first, at most `limit`. */
  since(email: string, sinceMs: number, limit: number): Promise<LoginFailureRow[]>;
  /** Answers the new row's seq. */
  insert(email: string, ip: string, atMs: number): Promise<number>;
  remove(seq: number): Promise<void>;
  /** Every failure of the address from `ip`, or from anywhere when `ip` is null (a password reset). */
  clear(email: string, ip: string | null): Promise<void>;
  /** Forgets failures older than every window. */
  prune(beforeMs: number): Promise<void>;
}

export interface PanelAuditOps {
  insert(a: AuditRow): Promise<void>;
  /** Newest first, keyset-paged on seq through the partner's index. */
  page(partnerId: string, beforeSeq: number | null, limit: number): Promise<AuditRow[]>;
}

export interface PanelOps extends PanelDashboardOps {
  /** Newest first, keyset-paged: page N costs what page 1 does. */
  payments(f: PanelPaymentFilter): Promise<PaymentSummaryRow[]>;
  /**
   * Captures in [fromMs, toMs). A payment is captured within its lifetime of creation, so the
   * created_at bound (a day earlier) keeps the read inside the partner's index range.
   */
  captured(partnerId: string, fromMs: number, toMs: number, createdAfterMs: number): Promise<{ count: number; sum: number }>;
}
