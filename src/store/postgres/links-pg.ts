import type { LinksOps } from "../links-ops";
import type { LinkItem, LinkListFilter, LinkRow, LinkStatus } from "../rows";
import type { Pg } from "./pg";

// Payment links on PostgreSQL (issue 23): the same answers as sqlite/links-sql.ts. Status changes
// are single conditional UPDATEs, so two transactions racing for one link can never both win: the
// second waits for the first's row lock and then re-checks the status (READ COMMITTED re-evaluates
// the WHERE on the new row version).

const COLUMNS = `id, partner_id AS "partnerId", token, partner_reference AS "partnerReference", terminal_id AS "terminalId",
  status, amount, share_bps AS "shareBps", description, redirect_url AS "redirectUrl", allowed_counts AS "allowedCounts",
  items, payer_name AS "payerName", attempt_seq AS "attemptSeq", first_opened_at_ms AS "firstOpenedAtMs",
  last_opened_at_ms AS "lastOpenedAtMs", expires_at_ms AS "expiresAtMs", created_at_ms AS "createdAtMs",
  updated_at_ms AS "updatedAtMs"`;

/** The predicate of the partial index `links_open_by_expiry`; the planner matches it to use the index. */
const OPEN = "status IN ('pending', 'launched', 'initiated', 'failed')";

type RawLink = Omit<LinkRow, "allowedCounts" | "items"> & { allowedCounts: string | null; items: string | null };

const toLinkRow = (r: RawLink): LinkRow => ({
  ...r,
  allowedCounts: r.allowedCounts === null ? null : (JSON.parse(r.allowedCounts) as number[]),
  items: r.items === null ? null : (JSON.parse(r.items) as LinkItem[]),
});

const json = (v: unknown): string | null => (v === null ? null : JSON.stringify(v));

/** The list filter's optional terms as fragments; an absent filter adds nothing (as in SQLite). */
function listQuery(sql: Pg, f: LinkListFilter) {
  const none = sql``;
  return sql<RawLink[]>`SELECT ${sql.unsafe(COLUMNS)} FROM payment_links WHERE partner_id = ${f.partnerId}
    ${f.statuses !== null ? sql`AND status = ANY(${sql.array([...f.statuses])})` : none}
    ${f.minAmount !== null ? sql`AND amount >= ${f.minAmount}` : none}
    ${f.maxAmount !== null ? sql`AND amount <= ${f.maxAmount}` : none}
    ${f.createdFromMs !== null ? sql`AND created_at_ms >= ${f.createdFromMs}` : none}
    ${f.createdToMs !== null ? sql`AND created_at_ms < ${f.createdToMs}` : none}
    ORDER BY created_at_ms DESC, partner_reference DESC LIMIT ${f.limit} OFFSET ${f.offset}`;
}

export function linksPg(sql: Pg): LinksOps {
  const get = async (id: string) => {
    const [r] = await sql<RawLink[]>`SELECT ${sql.unsafe(COLUMNS)} FROM payment_links WHERE id = ${id}`;
    return r && toLinkRow(r);
  };
  /** One conditional status move; `opened` also stamps both open times with `atMs` in the same statement. */
  const move = async (id: string, from: readonly LinkStatus[], to: LinkStatus, atMs: number, opened = false) => {
    const stamps = opened ? sql`, first_opened_at_ms = ${atMs}, last_opened_at_ms = ${atMs}` : sql``;
    const r = await sql`UPDATE payment_links SET status = ${to}, updated_at_ms = ${atMs} ${stamps}
      WHERE id = ${id} AND status = ANY(${sql.array([...from])})`;
    return r.count === 1;
  };

  return {
    async lock(key) {
      await sql`SELECT 1 FROM payment_links WHERE id = ${key} FOR UPDATE`;
    },
    get,
    async getOwned(partnerId, id) {
      const row = await get(id);
      return row?.partnerId === partnerId ? row : undefined;
    },
    async byToken(token) {
      const [r] = await sql<RawLink[]>`SELECT ${sql.unsafe(COLUMNS)} FROM payment_links WHERE token = ${token}`;
      return r && toLinkRow(r);
    },
    async insert(l) {
      await sql`INSERT INTO payment_links (id, partner_id, token, partner_reference, terminal_id, status, amount, share_bps,
          description, redirect_url, allowed_counts, items, payer_name, attempt_seq, first_opened_at_ms,
          last_opened_at_ms, expires_at_ms, created_at_ms, updated_at_ms)
        VALUES (${l.id}, ${l.partnerId}, ${l.token}, ${l.partnerReference}, ${l.terminalId}, ${l.status}, ${l.amount},
          ${l.shareBps}, ${l.description}, ${l.redirectUrl}, ${json(l.allowedCounts)}, ${json(l.items)}, ${l.payerName},
          ${l.attemptSeq}, ${l.firstOpenedAtMs}, ${l.lastOpenedAtMs}, ${l.expiresAtMs}, ${l.createdAtMs}, ${l.updatedAtMs})`;
    },
    list: async (f) => (await listQuery(sql, f)).map(toLinkRow),
    openExpiries: async () => [
      ...(await sql<{ id: string; expiresAtMs: number }[]>`SELECT id, expires_at_ms AS "expiresAtMs" FROM payment_links
        WHERE ${sql.unsafe(OPEN)} ORDER BY expires_at_ms`),
    ],
    dueExpiries: async (nowMs, limit) => [
      ...(await sql<{ id: string; expiresAtMs: number }[]>`SELECT id, expires_at_ms AS "expiresAtMs" FROM payment_links
        WHERE ${sql.unsafe(OPEN)} AND expires_at_ms <= ${nowMs} ORDER BY expires_at_ms, id COLLATE "C" LIMIT ${limit}`),
    ],
    // SQLite names its index (INDEXED BY); PostgreSQL has no hint, and the planner picks the
    // partial expiry index or the partner's own by their costs.
    dueForExpiry: async (partnerId, nowMs, limit) =>
      (
        await sql<{ id: string }[]>`SELECT id FROM payment_links
          WHERE ${sql.unsafe(OPEN)} AND expires_at_ms <= ${nowMs} AND partner_id = ${partnerId}
          ORDER BY expires_at_ms LIMIT ${limit}`
      ).map((r) => r.id),
    markLaunched: (id, from, atMs) => move(id, from, "launched", atMs, true),
    async touchOpened(id, from, atMs) {
      const r = await sql`UPDATE payment_links SET last_opened_at_ms = ${atMs}, updated_at_ms = ${atMs}
        WHERE id = ${id} AND status = ANY(${sql.array([...from])})`;
      return r.count === 1;
    },
    markInitiated: (id, from, atMs) => move(id, from, "initiated", atMs),
    markFailed: (id, from, atMs) => move(id, from, "failed", atMs),
    markCompleted: (id, from, atMs) => move(id, from, "completed", atMs),
    markExpired: (id, from, atMs) => move(id, from, "expired", atMs),
    markCancelled: (id, from, atMs) => move(id, from, "cancelled", atMs),
    // One statement: the increment and the read of its result cannot be split by another writer,
    // which SQLite got from its single writer (two statements there).
    async nextAttemptSeq(id) {
      const [r] = await sql<{ n: number }[]>`UPDATE payment_links SET attempt_seq = attempt_seq + 1 WHERE id = ${id}
        RETURNING attempt_seq AS n`;
      return r?.n ?? 0;
    },
  };
}
