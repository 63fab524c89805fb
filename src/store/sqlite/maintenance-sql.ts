import type { Db } from "./db-types";
import { SCHEMA_VERSION } from "./migrate";

// docs/operating.md: the SQL behind `kasa backup`, `kasa restore` and `kasa check`.

/**
 * An online, consistent copy: VACUUM INTO reads one snapshot (WAL lets the server keep writing)
 * and writes a compact database. The target must not exist or be empty.
 */
export function vacuumInto(db: Db, target: string): void {
  db.prepare("VACUUM INTO ?").run(target);
}

/** True when another connection has the database open: an exclusive lock cannot be had at once. */
export function inUseByOthers(db: Db): boolean {
  db.exec("PRAGMA busy_timeout = 0");
  try {
    db.exec("PRAGMA locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
    return false;
  } catch {
    return true;
  }
}

/** A kasa database: a schema version this kasa knows and kasa's core tables. */
export function isKasaDb(db: Db): boolean {
  const version = db.prepare("PRAGMA user_version").get<{ user_version: number }>()?.user_version ?? 0;
  if (version < 1 || version > SCHEMA_VERSION) return false;
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'partners', 'payments', 'webhook_deliveries')")
    .all();
  return tables.length === 4;
}

/** SQLite's own checks: each problem one line; none when the file is sound. */
export function sqliteFindings(db: Db): string[] {
  let integrity: string[];
  try {
    integrity = db
      .prepare("PRAGMA integrity_check")
      .all<{ integrity_check: string }>()
      .map((r) => r.integrity_check);
  } catch (error) {
    // A badly damaged file makes the check itself fail (SQLITE_CORRUPT): that is the finding.
    return [`integrity: ${error instanceof Error ? error.message : String(error)}`];
  }
  const out = integrity.length === 1 && integrity[0] === "ok" ? [] : integrity.map((m) => `integrity: ${m}`);
  const fks = db.prepare("PRAGMA foreign_key_check").all<{ table: string; rowid: number | null; parent: string }>();
  for (const fk of fks) out.push(`foreign key: a row of ${fk.table} points at a missing ${fk.parent} row`);
  out.push(...typeFindings(db));
  return out;
}

const STORAGE_CLASS: Record<string, string> = { INTEGER: "integer", TEXT: "text", REAL: "real", BLOB: "blob" };

/**
 * Issue 18: kasa never relies on SQLite's loose typing (a PostgreSQL column would refuse the
 * value), so every stored value has its column's declared type or is NULL. One scan per table.
 */
export function typeFindings(db: Db): string[] {
  const out: string[] = [];
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all<{ name: string }>();
  for (const { name } of tables) {
    const columns = db
      .prepare("SELECT name, type FROM pragma_table_info(?)")
      .all<{ name: string; type: string }>(name)
      .filter((c) => STORAGE_CLASS[c.type.toUpperCase()] !== undefined);
    if (columns.length === 0) continue;
    const checks = columns.map((c) => `SUM(typeof("${c.name}") NOT IN ('${STORAGE_CLASS[c.type.toUpperCase()]}', 'null'))`);
    const counts = db.prepare(`SELECT ${checks.join(", ")} FROM "${name}"`).all<Record<string, number | null>>()[0] ?? {};
    Object.values(counts).forEach((n, i) => {
      if (n) out.push(`type: ${n} value(s) of ${name}.${columns[i]!.name} are not ${columns[i]!.type.toUpperCase()}`);
    });
  }
  return out;
}

/** kasa's own invariants (docs/operating.md): money conserved, refunds within the capture, one outbox row per event. */
export function invariantFindings(db: Db): string[] {
  const out: string[] = [];
  const split = db
    .prepare(
      `SELECT code, amount, commission_amount AS c, net_to_partner AS n FROM payments
       WHERE commission_amount IS NOT NULL AND net_to_partner IS NOT NULL AND commission_amount + net_to_partner <> amount`,
    )
    .all<{ code: string; amount: number; c: number; n: number }>();
  for (const p of split) out.push(`money: payment ${p.code} amount ${p.amount} != commission ${p.c} + net ${p.n}`);
  const refunded = db
    .prepare(
      `SELECT p.code, p.refunded_amount AS recorded, COALESCE(SUM(r.amount), 0) AS approved FROM payments p
       LEFT JOIN refunds r ON r.payment_code = p.code AND r.status = 'approved'
       GROUP BY p.code HAVING recorded <> approved`,
    )
    .all<{ code: string; recorded: number; approved: number }>();
  for (const p of refunded)
    out.push(`money: payment ${p.code} records ${p.recorded} refunded but its approved refunds sum to ${p.approved}`);
  const over = db
    .prepare(
      `SELECT p.code, p.amount, p.captured_at_ms AS capturedAt, SUM(r.amount) AS refunds FROM payments p
       JOIN refunds r ON r.payment_code = p.code AND r.status IN ('approved', 'pending')
       GROUP BY p.code HAVING refunds > CASE WHEN capturedAt IS NULL THEN 0 ELSE p.amount END`,
    )
    .all<{ code: string; amount: number; capturedAt: number | null; refunds: number }>();
  for (const p of over)
    out.push(`refunds: payment ${p.code} has ${p.refunds} refunded against a capture of ${p.capturedAt === null ? 0 : p.amount}`);
  out.push(...outboxFindings(db));
  return out;
}

/** Every event is one outbox row: its body names its own row, and no subject has one event type twice. */
function outboxFindings(db: Db): string[] {
  const out: string[] = [];
  const mismatched = db
    .prepare("SELECT id FROM webhook_deliveries WHERE json_valid(body) = 0 OR json_extract(body, '$.id') IS NOT id")
    .all<{ id: string }>();
  for (const d of mismatched) out.push(`outbox: delivery ${d.id} carries another event's id`);
  // webhook.test is sent on demand and a payment may see several refunds (refund events name only the
  // payment), so those repeat; every other event happens once per payment, link or payout batch.
  const dupes = db
    .prepare(
      `SELECT type, COALESCE(json_extract(body, '$.paymentCode'), json_extract(body, '$.payoutBatchId'), json_extract(body, '$.paymentLinkId')) AS subject,
              COUNT(*) AS n FROM webhook_deliveries
       WHERE type NOT IN ('webhook.test', 'refund.approved', 'refund.declined') AND json_valid(body)
       GROUP BY partner_id, type, subject HAVING n > 1`,
    )
    .all<{ type: string; subject: string | null; n: number }>();
  for (const d of dupes) out.push(`outbox: ${d.n} rows for one ${d.type} event of ${d.subject ?? "(no subject)"}`);
  return out;
}
