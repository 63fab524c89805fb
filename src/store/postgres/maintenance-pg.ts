import type { Pg } from "./pg";

// docs/operating.md `kasa check` on PostgreSQL (docs/postgresql.md): kasa's own invariants, the translation of
// invariantFindings in src/store/sqlite/maintenance-sql.ts, with the same findings in the same
// words (test/pg/check-pg.test.ts runs both). What only a SQLite file needs checked has no
// counterpart here: PostgreSQL enforces every foreign key as rows are written (no
// foreign_key_check), every column has its declared type (no typeof scan), and the soundness of
// its files is its own tools' job (amcheck, data checksums), not a query of kasa's.
//
// Sums are numeric in PostgreSQL: they are read as text, which prints as SQLite's integers do.
// Rows come in SQLite's order (its GROUP BY sorts by the key), text compared byte by byte.

/** kasa's invariants (docs/operating.md): money conserved, refunds within the capture, one outbox row per event. */
export async function invariantFindingsPg(sql: Pg): Promise<string[]> {
  const out: string[] = [];
  const split = await sql<{ code: string; amount: number; c: number; n: number }[]>`
    SELECT code, amount, commission_amount AS c, net_to_partner AS n FROM payments
    WHERE commission_amount IS NOT NULL AND net_to_partner IS NOT NULL AND commission_amount + net_to_partner <> amount
    ORDER BY code COLLATE "C"`;
  for (const p of split) out.push(`money: payment ${p.code} amount ${p.amount} != commission ${p.c} + net ${p.n}`);
  const refunded = await sql<{ code: string; recorded: number; approved: string }[]>`
    SELECT p.code, p.refunded_amount AS recorded, COALESCE(SUM(r.amount), 0)::text AS approved FROM payments AS p
    LEFT JOIN refunds AS r ON r.payment_code = p.code AND r.status = 'approved'
    GROUP BY p.code HAVING p.refunded_amount <> COALESCE(SUM(r.amount), 0)
    ORDER BY p.code COLLATE "C"`;
  for (const p of refunded)
    out.push(`money: payment ${p.code} records ${p.recorded} refunded but its approved refunds sum to ${p.approved}`);
  const over = await sql<{ code: string; amount: number; capturedAt: number | null; refunds: string }[]>`
    SELECT p.code, p.amount, p.captured_at_ms AS "capturedAt", SUM(r.amount)::text AS refunds FROM payments AS p
    JOIN refunds AS r ON r.payment_code = p.code AND r.status IN ('approved', 'pending')
    GROUP BY p.code HAVING SUM(r.amount) > CASE WHEN p.captured_at_ms IS NULL THEN 0 ELSE p.amount END
    ORDER BY p.code COLLATE "C"`;
  for (const p of over)
    out.push(`refunds: payment ${p.code} has ${p.refunds} refunded against a capture of ${p.capturedAt === null ? 0 : p.amount}`);
  out.push(...(await outboxFindingsPg(sql)));
  return out;
}

/** Every event is one outbox row: its body names its own row, and no subject has one event type twice. */
async function outboxFindingsPg(sql: Pg): Promise<string[]> {
  const out: string[] = [];
  // A body that is not JSON, or whose "id" is not this row's id (a number or a missing id included, as SQLite's IS NOT).
  const mismatched = await sql<{ id: string }[]>`
    SELECT id FROM (SELECT id, kasa_jsonb_or_null(body) AS j FROM webhook_deliveries) AS d
    WHERE d.j IS NULL OR (d.j -> 'id') IS DISTINCT FROM to_jsonb(d.id)
    ORDER BY id COLLATE "C"`;
  for (const d of mismatched) out.push(`outbox: delivery ${d.id} carries another event's id`);
  // As on SQLite: test events and refund events repeat; every other event happens once per subject.
  const dupes = await sql<{ type: string; subject: string | null; n: number }[]>`
    SELECT type, subject, COUNT(*)::int AS n FROM (
      SELECT partner_id, type, COALESCE(j ->> 'paymentCode', j ->> 'payoutBatchId', j ->> 'paymentLinkId') AS subject
      FROM (SELECT partner_id, type, kasa_jsonb_or_null(body) AS j FROM webhook_deliveries
            WHERE type NOT IN ('webhook.test', 'refund.approved', 'refund.declined')) AS d
      WHERE j IS NOT NULL) AS e
    GROUP BY partner_id, type, subject HAVING COUNT(*) > 1
    ORDER BY partner_id COLLATE "C", type COLLATE "C", subject COLLATE "C" NULLS FIRST`;
  for (const d of dupes) out.push(`outbox: ${d.n} rows for one ${d.type} event of ${d.subject ?? "(no subject)"}`);
  return out;
}
