import type { Pg } from "./pg";

// TESTS ONLY (issue 23 differential tests of links, webhooks, settlement, operator and panel): the
// service never calls these. They put the prerequisite rows (a partner, a PSP, a connection, a
// terminal, a payment in a given state, a refund) into a PostgreSQL test database while the
// partners, catalog, payments and refunds operations are translated elsewhere; SQL lives in
// src/store only, so the tests ask for rows by name. Each writes what the real operations would
// leave in the columns the read operations under test look at.

/** A partner with every optional column empty: what the tests' PartnerRow seeds on SQLite. */
export async function seedPartnerPg(sql: Pg, id: string, createdAtMs: number): Promise<void> {
  await sql`INSERT INTO partners (id, name, status, card_attempt_limit, rate_limit_multiplier, created_at_ms)
    VALUES (${id}, ${`Partner ${id}`}, 'active', 3, 1, ${createdAtMs})`;
}

/** A terminal of `partnerId` on connection `connectionId` of bank `bank` (the PSP and connection made on first use). */
export async function seedTerminalPg(sql: Pg, t: { id: string; partnerId: string; connectionId: string; bank: string }): Promise<void> {
  await sql`INSERT INTO psps (id, active) VALUES ('psp', true) ON CONFLICT (id) DO NOTHING`;
  await sql`INSERT INTO connections (id, psp_id, bank, active, accepts_foreign, accepts_debit)
    VALUES (${t.connectionId}, 'psp', ${t.bank}, true, true, true) ON CONFLICT (id) DO NOTHING`;
  await sql`INSERT INTO terminals (id, partner_id, connection_id, active, commission_basis, installments, rates,
      infrastructure, direct_collection, value_days)
    VALUES (${t.id}, ${t.partnerId}, ${t.connectionId}, true, 'gross', '[1]', '[]', 'standard', false, 1)`;
}

/** A payment as `payments.insert` leaves it, then captured (when `captured` is given) as `markCaptured` does. */
export type SeedPayment = {
  code: string;
  partnerId: string;
  terminalId: string;
  connectionId: string;
  linkId: string | null;
  amount: number;
  createdAtMs: number;
  expiresAtMs: number;
  captured: { atMs: number; commission: number; net: number; valueDate: string } | null;
};

export async function seedPaymentPg(sql: Pg, p: SeedPayment): Promise<void> {
  const c = p.captured;
  await sql`INSERT INTO payments (code, partner_id, terminal_id, connection_id, partner_tx_code, channel, link_id, status,
      amount, principal, currency, installment, payment_ref, commission_amount, net_to_partner, expected_value_date,
      bank_reference, auth_code, captured_at_ms, expires_at_ms, created_at_ms, updated_at_ms)
    VALUES (${p.code}, ${p.partnerId}, ${p.terminalId}, ${p.connectionId}, ${`tx-${p.code}`},
      ${p.linkId === null ? "api" : "link"}, ${p.linkId}, ${c === null ? "initiated" : "captured"}, ${p.amount},
      ${p.amount}, 'TRY', 1, ${`ref-${p.code}`}, ${c?.commission ?? null}, ${c?.net ?? null}, ${c?.valueDate ?? null},
      ${c === null ? null : `bank-${p.code}`}, ${c === null ? null : "auth"}, ${c?.atMs ?? null}, ${p.expiresAtMs},
      ${p.createdAtMs}, ${c?.atMs ?? p.createdAtMs})`;
}

/** A refund as `refunds.insertPending` leaves it, then finished as `refunds.finish` does when `finishedAtMs` is given. */
export type SeedRefund = {
  id: string;
  paymentCode: string;
  partnerId: string;
  method: "void" | "credit";
  amount: number;
  createdAtMs: number;
  finished: { status: "approved" | "declined"; atMs: number } | null;
};

export async function seedRefundPg(sql: Pg, r: SeedRefund): Promise<void> {
  const f = r.finished;
  await sql`INSERT INTO refunds (id, payment_code, partner_id, partner_refund_code, method, status, amount, created_at_ms, updated_at_ms)
    VALUES (${r.id}, ${r.paymentCode}, ${r.partnerId}, ${`prc-${r.id}`}, ${r.method}, ${f?.status ?? "pending"}, ${r.amount},
      ${r.createdAtMs}, ${f?.atMs ?? r.createdAtMs})`;
}
