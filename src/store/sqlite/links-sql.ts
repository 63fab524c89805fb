import type { Db, SqlValue } from "./db-types";
import type { LinkItem, LinkListFilter, LinkRow, LinkStatus } from "../rows";

// Payment links (docs/contract.md, The link record / Link states). Status changes are conditional updates: each names the
// states it may leave (the machine table's `from`, passed in by the domain) and reports whether it
// moved, so two units racing for one link can never both win.

const COLUMNS = `id, partner_id AS partnerId, token, partner_reference AS partnerReference, terminal_id AS terminalId,
  status, amount, share_bps AS shareBps, description, redirect_url AS redirectUrl, allowed_counts AS allowedCounts,
  items, payer_name AS payerName, attempt_seq AS attemptSeq, first_opened_at_ms AS firstOpenedAtMs,
  last_opened_at_ms AS lastOpenedAtMs, expires_at_ms AS expiresAtMs, created_at_ms AS createdAtMs,
  updated_at_ms AS updatedAtMs`;

/** Must repeat the partial index `links_open_by_expiry` word for word, or SQLite will not use it. */
const OPEN = "status IN ('pending', 'launched', 'initiated', 'failed')";

type RawLink = Omit<LinkRow, "allowedCounts" | "items"> & { allowedCounts: string | null; items: string | null };

const toLinkRow = (r: RawLink): LinkRow => ({
  ...r,
  allowedCounts: r.allowedCounts === null ? null : (JSON.parse(r.allowedCounts) as number[]),
  items: r.items === null ? null : (JSON.parse(r.items) as LinkItem[]),
});

const placeholders = (n: number): string => Array.from({ length: n }, () => "?").join(", ");

/** WHERE clause and parameters of a list filter; every variant starts with `partner_id = ?`. */
function listWhere(f: LinkListFilter): { sql: string; params: SqlValue[] } {
  const terms = ["partner_id = ?"];
  const params: SqlValue[] = [f.partnerId];
  if (f.statuses !== null) {
    terms.push(`status IN (${placeholders(f.statuses.length)})`);
    params.push(...f.statuses);
  }
  const bounds: Array<[string, number | null]> = [
    ["amount >= ?", f.minAmount],
    ["amount <= ?", f.maxAmount],
    ["created_at_ms >= ?", f.createdFromMs],
    ["created_at_ms < ?", f.createdToMs],
  ];
  for (const [term, value] of bounds) {
    if (value === null) continue;
    terms.push(term);
    params.push(value);
  }
  return { sql: terms.join(" AND "), params };
}

function listQuery(f: LinkListFilter): { sql: string; params: SqlValue[] } {
  const where = listWhere(f);
  return {
    sql: `SELECT ${COLUMNS} FROM payment_links WHERE ${where.sql} ORDER BY created_at_ms DESC, partner_reference DESC LIMIT ? OFFSET ?`,
    params: [...where.params, f.limit, f.offset],
  };
}

export function linksSql(db: Db) {
  const get = (id: string) => {
    const r = db.prepare(`SELECT ${COLUMNS} FROM payment_links WHERE id = ?`).get<RawLink>(id);
    return r && toLinkRow(r);
  };
  /** One conditional status move; `stamped` columns are set to `atMs` in the same statement. */
  const move = (id: string, from: readonly LinkStatus[], to: LinkStatus, atMs: number, stamped: readonly string[] = []): boolean =>
    db
      .prepare(
        `UPDATE payment_links SET status = ?, ${["updated_at_ms", ...stamped].map((c) => `${c} = ?`).join(", ")}
         WHERE id = ? AND status IN (${placeholders(from.length)})`,
      )
      .run(to, atMs, ...stamped.map(() => atMs), id, ...from).changes === 1;

  return {
    get,
    /** The caller's link only; another partner's id reads as absent (docs/contract.md, Read and cancel a link). */
    getOwned(partnerId: string, id: string): LinkRow | undefined {
      const row = get(id);
      return row?.partnerId === partnerId ? row : undefined;
    },
    byToken(token: string): LinkRow | undefined {
      const r = db.prepare(`SELECT ${COLUMNS} FROM payment_links WHERE token = ?`).get<RawLink>(token);
      return r && toLinkRow(r);
    },
    insert(l: LinkRow): void {
      db.prepare(
        `INSERT INTO payment_links (id, partner_id, token, partner_reference, terminal_id, status, amount, share_bps,
           description, redirect_url, allowed_counts, items, payer_name, attempt_seq, first_opened_at_ms,
           last_opened_at_ms, expires_at_ms, created_at_ms, updated_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        l.id,
        l.partnerId,
        l.token,
        l.partnerReference,
        l.terminalId,
        l.status,
        l.amount,
        l.shareBps,
        l.description,
        l.redirectUrl,
        l.allowedCounts === null ? null : JSON.stringify(l.allowedCounts),
        l.items === null ? null : JSON.stringify(l.items),
        l.payerName,
        l.attemptSeq,
        l.firstOpenedAtMs,
        l.lastOpenedAtMs,
        l.expiresAtMs,
        l.createdAtMs,
        l.updatedAtMs,
      );
    },
    /** docs/contract.md, List links: newest first, `partnerReference` breaking ties (docs/decisions.md, Readings of the contract). */
    list(f: LinkListFilter): LinkRow[] {
      const q = listQuery(f);
      return db
        .prepare(q.sql)
        .all<RawLink>(...q.params)
        .map(toLinkRow);
    },
    /** Every open link and its expiry: the timer wheel's source at start (index links_open_by_expiry). */
    openExpiries: () =>
      db
        .prepare(`SELECT id, expires_at_ms AS expiresAtMs FROM payment_links WHERE ${OPEN} ORDER BY expires_at_ms`)
        .all<{ id: string; expiresAtMs: number }>(),
    dueExpiries: (nowMs: number, limit: number) =>
      db
        .prepare(
          `SELECT id, expires_at_ms AS expiresAtMs FROM payment_links WHERE ${OPEN} AND expires_at_ms <= ? ORDER BY expires_at_ms LIMIT ?`,
        )
        .all<{ id: string; expiresAtMs: number }>(nowMs, limit),
    /**
     * Open links of a partner whose expiry has come (now >= expiresAt), at most `limit`. Normally
     * none are (the wheel keeps up), so the probe must cost one index seek: the partial expiry
     * index is named, else SQLite would walk the partner's whole index.
     */
    dueForExpiry: (partnerId: string, nowMs: number, limit: number) =>
      db
        .prepare(
          `SELECT id FROM payment_links INDEXED BY links_open_by_expiry
           WHERE ${OPEN} AND expires_at_ms <= ? AND partner_id = ? ORDER BY expires_at_ms LIMIT ?`,
        )
        .all<{ id: string }>(nowMs, partnerId, limit)
        .map((r) => r.id),
    /** pending -> launched: the first open also stamps both open times (docs/checkout.md, Payment link pages). */
    markLaunched: (id: string, from: readonly LinkStatus[], atMs: number) =>
      move(id, from, "launched", atMs, ["first_opened_at_ms", "last_opened_at_ms"]),
    /** A later open changes no state, only `lastOpenedAt` (docs/checkout.md, Payment link pages). */
    touchOpened: (id: string, from: readonly LinkStatus[], atMs: number): boolean =>
      db
        .prepare(
          `UPDATE payment_links SET last_opened_at_ms = ?, updated_at_ms = ? WHERE id = ? AND status IN (${placeholders(from.length)})`,
        )
        .run(atMs, atMs, id, ...from).changes === 1,
    markInitiated: (id: string, from: readonly LinkStatus[], atMs: number) => move(id, from, "initiated", atMs),
    markFailed: (id: string, from: readonly LinkStatus[], atMs: number) => move(id, from, "failed", atMs),
    markCompleted: (id: string, from: readonly LinkStatus[], atMs: number) => move(id, from, "completed", atMs),
    markExpired: (id: string, from: readonly LinkStatus[], atMs: number) => move(id, from, "expired", atMs),
    markCancelled: (id: string, from: readonly LinkStatus[], atMs: number) => move(id, from, "cancelled", atMs),
    /** Issues n for the next `PL-<id>-<n>` payment of the link (docs/contract.md, Payments). */
    nextAttemptSeq(id: string): number {
      db.prepare("UPDATE payment_links SET attempt_seq = attempt_seq + 1 WHERE id = ?").run(id);
      return db.prepare("SELECT attempt_seq AS n FROM payment_links WHERE id = ?").get<{ n: number }>(id)?.n ?? 0;
    },
  };
}
