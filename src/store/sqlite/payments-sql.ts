import { connectionUsageSql } from "./connection-usage-sql";
import type { Db } from "./db-types";
import type { CaptureFacts, CardFacts, NewPayment, PaymentRow, PaymentStatus } from "../rows-money";

// Payments (docs/contract.md, The payment record / Payment states / Payments). Status changes are conditional updates: each names
// the states it may leave (the machine table's `from`, passed in by the domain) and reports
// whether it moved, so two units racing for one payment can never both win. No column holds
// card data: the PAN, expiry and CVV never reach this file.

const COLUMNS = `code, partner_id AS partnerId, terminal_id AS terminalId, connection_id AS connectionId,
  partner_tx_code AS partnerTxCode, channel, link_id AS linkId, status, amount, principal, currency, installment,
  description, return_url AS returnUrl, payment_ref AS paymentRef, three_d_started AS threeDStarted,
  attempts_counted AS attemptsCounted, masked_pan AS maskedPan, card_brand AS cardBrand, card_family AS cardFamily,
  card_bank AS cardBank, applied_rate_bps AS appliedRateBps, applied_fixed_fee AS appliedFixedFee,
  commission_amount AS commissionAmount, net_to_partner AS netToPartner, expected_value_date AS expectedValueDate,
  bank_reference AS bankReference, auth_code AS authCode, refunded_amount AS refundedAmount, settled_day AS settledDay,
  payout_batch_id AS payoutBatchId, captured_at_ms AS capturedAtMs, expires_at_ms AS expiresAtMs,
  created_at_ms AS createdAtMs, updated_at_ms AS updatedAtMs`;

/** Must repeat the partial index `payments_active_tx_code` so SQLite uses it. */
const HOLDING = "status NOT IN ('failed', 'expired')";

type Raw = Omit<PaymentRow, "threeDStarted"> & { threeDStarted: number };

const toRow = (r: Raw | undefined): PaymentRow | undefined => r && { ...r, threeDStarted: r.threeDStarted === 1 };

const placeholders = (n: number): string => Array.from({ length: n }, () => "?").join(", ");

export function paymentsSql(db: Db) {
  const one = (where: string, ...params: (string | number)[]) =>
    toRow(db.prepare(`SELECT ${COLUMNS} FROM payments WHERE ${where}`).get<Raw>(...params));
  /** `SET …` on one payment if it is in `from`; `true` when it moved. */
  const update = (
    code: string,
    from: readonly PaymentStatus[],
    set: string,
    params: (string | number | null)[],
    extra = "",
    extraParams: number[] = [],
  ): boolean =>
    db
      .prepare(`UPDATE payments SET ${set} WHERE code = ? AND status IN (${placeholders(from.length)})${extra}`)
      .run(...params, code, ...from, ...extraParams).changes === 1;

  return {
    get: (code: string) => one("code = ?", code),
    /** The caller's payment only; another partner's code reads as absent (docs/contract.md, Read a payment). */
    getOwned(partnerId: string, code: string): PaymentRow | undefined {
      const row = one("code = ?", code);
      return row?.partnerId === partnerId ? row : undefined;
    },
    byRef: (paymentRef: string) => one("payment_ref = ?", paymentRef),
    /** The one payment holding the code (docs/contract.md, Create a payment / Read a payment); the partial unique index makes it one. */
    holdingTxCode: (partnerId: string, partnerTxCode: string) =>
      one(`partner_id = ? AND partner_tx_code = ? AND ${HOLDING}`, partnerId, partnerTxCode),
    /** Inserts an `initiated` payment and answers its row as stored (the column defaults below). */
    insert(p: NewPayment): PaymentRow {
      db.prepare(
        `INSERT INTO payments (code, partner_id, terminal_id, connection_id, partner_tx_code, channel, link_id, status,
           amount, principal, currency, installment, description, return_url, payment_ref, expires_at_ms,
           created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, 'initiated', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        p.code,
        p.partnerId,
        p.terminalId,
        p.connectionId,
        p.partnerTxCode,
        p.channel,
        p.linkId,
        p.amount,
        p.principal,
        p.currency,
        p.installment,
        p.description,
        p.returnUrl,
        p.paymentRef,
        p.expiresAtMs,
        p.createdAtMs,
        p.createdAtMs,
      );
      return {
        ...p,
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
        updatedAtMs: p.createdAtMs,
      };
    },
    ...connectionUsageSql(db),
    /** 3D start (docs/contract.md, Payments): fixes card facts and rate, and uses up the ref until a decline frees it. */
    markThreeDStarted: (code: string, from: readonly PaymentStatus[], c: CardFacts, atMs: number) =>
      update(
        code,
        from,
        `three_d_started = 1, masked_pan = ?, card_brand = ?, card_family = ?, card_bank = ?, applied_rate_bps = ?,
         applied_fixed_fee = ?, updated_at_ms = ?`,
        [c.maskedPan, c.cardBrand, c.cardFamily, c.cardBank, c.appliedRateBps, c.appliedFixedFee, atMs],
        " AND three_d_started = 0",
      ),
    /** A decline at 3D start: the ref is usable again and the attempt counts (docs/contract.md, Payment states). */
    releaseThreeD: (code: string, from: readonly PaymentStatus[], atMs: number) =>
      update(
        code,
        from,
        "three_d_started = 0, attempts_counted = attempts_counted + 1, updated_at_ms = ?",
        [atMs],
        " AND three_d_started = 1",
      ),
    reopenThreeD: (code: string, from: readonly PaymentStatus[], atMs: number) =>
      update(code, from, "three_d_started = 0, updated_at_ms = ?", [atMs], " AND three_d_started = 1"),
    repriceThreeD: (code: string, from: readonly PaymentStatus[], c: Pick<CardFacts, "appliedRateBps" | "appliedFixedFee">, atMs: number) =>
      update(
        code,
        from,
        "applied_rate_bps = ?, applied_fixed_fee = ?, updated_at_ms = ?",
        [c.appliedRateBps, c.appliedFixedFee, atMs],
        " AND three_d_started = 1",
      ),
    moveConnection: (code: string, connectionId: string, atMs: number) =>
      db
        .prepare("UPDATE payments SET connection_id = ?, updated_at_ms = ? WHERE code = ? AND connection_id <> ?")
        .run(connectionId, atMs, code, connectionId).changes === 1,
    /** A counted refusal before the bank was asked (card type, installment eligibility). */
    countAttempt: (code: string, from: readonly PaymentStatus[], atMs: number) =>
      update(code, from, "attempts_counted = attempts_counted + 1, updated_at_ms = ?", [atMs], " AND three_d_started = 0"),
    markCaptured: (code: string, from: readonly PaymentStatus[], c: CaptureFacts, atMs: number) =>
      update(
        code,
        from,
        `status = 'captured', commission_amount = ?, net_to_partner = ?, expected_value_date = ?, bank_reference = ?,
         auth_code = ?, captured_at_ms = ?, updated_at_ms = ?`,
        [c.commissionAmount, c.netToPartner, c.expectedValueDate, c.bankReference, c.authCode, atMs, atMs],
      ),
    markFailed: (code: string, from: readonly PaymentStatus[], atMs: number) =>
      update(code, from, "status = 'failed', updated_at_ms = ?", [atMs]),
    /** Only once the window has passed at `nowMs` (docs/decisions.md, Readings of the contract: now >= expiresAt); stamped `atMs`. */
    markExpired: (code: string, from: readonly PaymentStatus[], nowMs: number, atMs: number) =>
      update(code, from, "status = 'expired', updated_at_ms = ?", [atMs], " AND expires_at_ms <= ?", [nowMs]),
    /** Every initiated payment and its window end: the timer wheel's source at start. */
    initiatedExpiries: () =>
      db
        .prepare("SELECT code, expires_at_ms AS expiresAtMs FROM payments WHERE status = 'initiated' ORDER BY expires_at_ms")
        .all<{ code: string; expiresAtMs: number }>(),
    dueExpiries: (nowMs: number, limit: number) =>
      db
        .prepare(
          "SELECT code, expires_at_ms AS expiresAtMs FROM payments WHERE status = 'initiated' AND expires_at_ms <= ? ORDER BY expires_at_ms LIMIT ?",
        )
        .all<{ code: string; expiresAtMs: number }>(nowMs, limit),
  };
}
