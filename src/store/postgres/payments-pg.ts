import type { PendingQuery, Row } from "postgres";
import type { NewPayment, PaymentRow, PaymentStatus } from "../rows-money";
import type { PaymentsOps } from "../money-ops";
import { connectionUsagePg } from "./connection-usage-pg";
import { admission } from "./room-reservations-pg";
import type { Pg } from "./pg";
import { NO_HOLDER, type RoomHolder } from "./room-reservations-pg";

// Payments on PostgreSQL (issue 23): the translation of sqlite/payments-sql.ts. Every status change
// is one conditional UPDATE naming the states it may leave, so it stays atomic without the single
// writer: a concurrent UPDATE of the same row waits for the first and re-checks the WHERE on the
// row it left. `three_d_started` keeps its 0/1 number here too (schema.sql has no CHECK on it).

const COLUMNS = `code, partner_id AS "partnerId", terminal_id AS "terminalId", connection_id AS "connectionId",
  partner_tx_code AS "partnerTxCode", channel, link_id AS "linkId", status, amount, principal, currency, installment,
  description, return_url AS "returnUrl", payment_ref AS "paymentRef", three_d_started AS "threeDStarted",
  attempts_counted AS "attemptsCounted", masked_pan AS "maskedPan", card_brand AS "cardBrand", card_family AS "cardFamily",
  card_bank AS "cardBank", applied_rate_bps AS "appliedRateBps", applied_fixed_fee AS "appliedFixedFee",
  commission_amount AS "commissionAmount", net_to_partner AS "netToPartner", expected_value_date AS "expectedValueDate",
  bank_reference AS "bankReference", auth_code AS "authCode", refunded_amount AS "refundedAmount", settled_day AS "settledDay",
  payout_batch_id AS "payoutBatchId", captured_at_ms AS "capturedAtMs", expires_at_ms AS "expiresAtMs",
  created_at_ms AS "createdAtMs", updated_at_ms AS "updatedAtMs"`;

type Raw = Omit<PaymentRow, "threeDStarted"> & { threeDStarted: number };

const toRow = (r: Raw | undefined): PaymentRow | undefined => r && { ...r, threeDStarted: r.threeDStarted === 1 };

/** The columns an `insert` leaves to their defaults, as the row then stores them. */
const DEFAULTS = {
  status: "initiated",
  threeDStarted: false,
  attemptsCounted: 0,
  maskedPan: null,
  cardBrand: null,
  cardFamily: null,
  cardBank: null,
  appliedRateBps: null,
  appliedFixedFee: null,
  commissionAmount: null,
  netToPartner: null,
  expectedValueDate: null,
  bankReference: null,
  authCode: null,
  refundedAmount: 0,
  settledDay: null,
  payoutBatchId: null,
  capturedAtMs: null,
} as const;

export function paymentsPg(sql: Pg, holder: RoomHolder = NO_HOLDER): PaymentsOps {
  const columns = sql.unsafe(COLUMNS);
  const one = async (where: PendingQuery<Row[]>) => toRow((await sql<Raw[]>`SELECT ${columns} FROM payments WHERE ${where}`)[0]);
  /** `SET …` on one payment if it is in `from`; `true` when it moved. */
  const update = async (code: string, from: readonly PaymentStatus[], set: PendingQuery<Row[]>, extra = sql``) =>
    (await sql`UPDATE payments SET ${set} WHERE code = ${code} AND status = ANY(${[...from]}::text[]) ${extra}`).count === 1;

  return {
    async lock(key) {
      await sql`SELECT 1 FROM payments WHERE code = ${key} FOR UPDATE`;
    },
    get: (code) => one(sql`code = ${code}`),
    async getOwned(partnerId, code) {
      const row = await one(sql`code = ${code}`);
      return row?.partnerId === partnerId ? row : undefined;
    },
    byRef: (paymentRef) => one(sql`payment_ref = ${paymentRef}`),
    // Repeats the partial index `payments_active_tx_code` predicate so the planner can use it.
    holdingTxCode: (partnerId, partnerTxCode) =>
      one(sql`partner_id = ${partnerId} AND partner_tx_code = ${partnerTxCode} AND status NOT IN ('failed', 'expired')`),
    async insert(p: NewPayment): Promise<PaymentRow> {
      await sql`INSERT INTO payments (code, partner_id, terminal_id, connection_id, partner_tx_code, channel, link_id, status,
          amount, principal, currency, installment, description, return_url, payment_ref, expires_at_ms, created_at_ms, updated_at_ms)
        VALUES (${p.code}, ${p.partnerId}, ${p.terminalId}, ${p.connectionId}, ${p.partnerTxCode}, ${p.channel}, ${p.linkId},
          'initiated', ${p.amount}, ${p.principal}, ${p.currency}, ${p.installment}, ${p.description}, ${p.returnUrl},
          ${p.paymentRef}, ${p.expiresAtMs}, ${p.createdAtMs}, ${p.createdAtMs})`;
      return { ...p, ...DEFAULTS, updatedAtMs: p.createdAtMs };
    },
    async insertWithinReservation(p, frame) {
      // The same active payment as holdingTxCode (the partial index payments_active_tx_code).
      const free = sql`NOT EXISTS (SELECT 1 FROM payments WHERE partner_id = ${p.partnerId}
        AND partner_tx_code = ${p.partnerTxCode} AND status NOT IN ('failed', 'expired'))`;
      // undefined: no admission needed (no period or window limit); null: no usable reservation.
      const admitted = frame === null ? undefined : admission(sql, holder, p.connectionId, p.amount, frame.w, frame.room, sql`AND ${free}`);
      if (admitted === null) return null;
      const row = sql`SELECT ${p.code}, ${p.partnerId}, ${p.terminalId}, ${p.connectionId}, ${p.partnerTxCode}, ${p.channel},
          ${p.linkId}, 'initiated', ${p.amount}::bigint, ${p.principal}::bigint, ${p.currency}, ${p.installment}::bigint,
          ${p.description}, ${p.returnUrl}, ${p.paymentRef}, ${p.expiresAtMs}::bigint, ${p.createdAtMs}::bigint, ${p.createdAtMs}::bigint`;
      const into = sql`INSERT INTO payments (code, partner_id, terminal_id, connection_id, partner_tx_code, channel, link_id, status,
          amount, principal, currency, installment, description, return_url, payment_ref, expires_at_ms, created_at_ms, updated_at_ms)`;
      const inserted = await (admitted === undefined
        ? sql`${into} ${row} WHERE ${free}`
        : sql`WITH admitted AS (${admitted} RETURNING 1) ${into} ${row} WHERE EXISTS (SELECT 1 FROM admitted)`);
      return inserted.count === 1 ? { ...p, ...DEFAULTS, updatedAtMs: p.createdAtMs } : null;
    },
    ...connectionUsagePg(sql, holder),
    markThreeDStarted: (code, from, c, atMs) =>
      update(
        code,
        from,
        sql`three_d_started = 1, masked_pan = ${c.maskedPan}, card_brand = ${c.cardBrand}, card_family = ${c.cardFamily},
          card_bank = ${c.cardBank}, applied_rate_bps = ${c.appliedRateBps}, applied_fixed_fee = ${c.appliedFixedFee},
          updated_at_ms = ${atMs}`,
        sql`AND three_d_started = 0`,
      ),
    releaseThreeD: (code, from, atMs) =>
      update(
        code,
        from,
        sql`three_d_started = 0, attempts_counted = attempts_counted + 1, updated_at_ms = ${atMs}`,
        sql`AND three_d_started = 1`,
      ),
    reopenThreeD: (code, from, atMs) => update(code, from, sql`three_d_started = 0, updated_at_ms = ${atMs}`, sql`AND three_d_started = 1`),
    repriceThreeD: (code, from, c, atMs) =>
      update(
        code,
        from,
        sql`applied_rate_bps = ${c.appliedRateBps}, applied_fixed_fee = ${c.appliedFixedFee}, updated_at_ms = ${atMs}`,
        sql`AND three_d_started = 1`,
      ),
    moveConnection: async (code, connectionId, atMs) =>
      (
        await sql`UPDATE payments SET connection_id = ${connectionId}, updated_at_ms = ${atMs}
          WHERE code = ${code} AND connection_id <> ${connectionId}`
      ).count === 1,
    countAttempt: (code, from, atMs) =>
      update(code, from, sql`attempts_counted = attempts_counted + 1, updated_at_ms = ${atMs}`, sql`AND three_d_started = 0`),
    markCaptured: (code, from, c, atMs) =>
      update(
        code,
        from,
        sql`status = 'captured', commission_amount = ${c.commissionAmount}, net_to_partner = ${c.netToPartner},
          expected_value_date = ${c.expectedValueDate}, bank_reference = ${c.bankReference}, auth_code = ${c.authCode},
          captured_at_ms = ${atMs}, updated_at_ms = ${atMs}`,
      ),
    markFailed: (code, from, atMs) => update(code, from, sql`status = 'failed', updated_at_ms = ${atMs}`),
    markExpired: (code, from, nowMs, atMs) =>
      update(code, from, sql`status = 'expired', updated_at_ms = ${atMs}`, sql`AND expires_at_ms <= ${nowMs}`),
    // The code breaks ties as the SQLite index (expires_at_ms, then the primary key) does.
    initiatedExpiries: async () => [
      ...(await sql<{ code: string; expiresAtMs: number }[]>`SELECT code, expires_at_ms AS "expiresAtMs" FROM payments
        WHERE status = 'initiated' ORDER BY expires_at_ms, code COLLATE "C"`),
    ],
    dueExpiries: async (nowMs, limit) => [
      ...(await sql<{ code: string; expiresAtMs: number }[]>`SELECT code, expires_at_ms AS "expiresAtMs" FROM payments
        WHERE status = 'initiated' AND expires_at_ms <= ${nowMs} ORDER BY expires_at_ms, code COLLATE "C" LIMIT ${limit}`),
    ],
  };
}
