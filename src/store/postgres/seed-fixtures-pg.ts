import type { ConnectionRow, LinkRow, PartnerRow, PspRow, TerminalRow } from "../rows";
import type { Pg } from "./pg";

// TESTS ONLY (issue 23): the catalog rows a payment hangs off (PSP, connection, partner, terminal,
// link), written straight into a PostgreSQL test database so the payments, attempts, bank, refunds
// and link-checkout differential tests can seed their prerequisites while the catalog, partners and
// links groups are translated separately. The service never calls this: the real writes are the
// groups' own upserts. Secrets are stored in clear, as a store opened without a master key does.

export type CatalogSeed = {
  psps?: PspRow[];
  connections?: ConnectionRow[];
  partners?: PartnerRow[];
  terminals?: TerminalRow[];
  links?: LinkRow[];
};

const json = (v: unknown): string | null => (v === null ? null : JSON.stringify(v));

/** Tests only: inserts the given rows, parents first. */
export async function insertCatalogForTests(sql: Pg, seed: CatalogSeed): Promise<void> {
  for (const p of seed.psps ?? []) await sql`INSERT INTO psps (id, active) VALUES (${p.id}, ${p.active})`;
  for (const c of seed.connections ?? []) {
    await sql`INSERT INTO connections (id, psp_id, bank, active, accepts_foreign, accepts_debit, per_tx_max, daily_max,
        weekly_max, monthly_max, window_minutes, window_max, bank_config)
      VALUES (${c.id}, ${c.pspId}, ${c.bank}, ${c.active}, ${c.acceptsForeignCards}, ${c.acceptsDebit}, ${c.perTxMax},
        ${c.dailyMax}, ${c.weeklyMax}, ${c.monthlyMax}, ${c.windowMinutes}, ${c.windowMax}, ${c.bankConfig})`;
  }
  for (const p of seed.partners ?? []) {
    await sql`INSERT INTO partners (id, name, status, allowed_redirect_hosts, amount_min, amount_max, card_attempt_limit,
        installment_cap, webhook_url, webhook_secret, rate_limit_multiplier, payout_account, created_at_ms)
      VALUES (${p.id}, ${p.name}, ${p.status}, ${json(p.allowedRedirectHosts)}, ${p.amountMin}, ${p.amountMax},
        ${p.cardAttemptLimit}, ${p.installmentCap}, ${p.webhookUrl}, ${p.webhookSecret}, ${p.rateLimitMultiplier},
        ${p.payoutAccount}, ${p.createdAtMs})`;
  }
  for (const t of seed.terminals ?? []) {
    await sql`INSERT INTO terminals (id, partner_id, connection_id, active, commission_basis, installments, rates,
        infrastructure, direct_collection, value_days, value_days_by_count, bank, allowed_card_families)
      VALUES (${t.id}, ${t.partnerId}, ${t.connectionId}, ${t.active}, ${t.commissionBasis}, ${json(t.installments)},
        ${json(t.rates)}, ${t.infrastructure}, ${t.directCollection}, ${t.valueDays}, ${json(t.valueDaysByCount)}, ${t.bank},
        ${json(t.allowedCardFamilies)})`;
  }
  for (const l of seed.links ?? []) {
    await sql`INSERT INTO payment_links (id, partner_id, token, partner_reference, terminal_id, status, amount, share_bps,
        description, redirect_url, allowed_counts, items, payer_name, attempt_seq, first_opened_at_ms, last_opened_at_ms,
        expires_at_ms, created_at_ms, updated_at_ms)
      VALUES (${l.id}, ${l.partnerId}, ${l.token}, ${l.partnerReference}, ${l.terminalId}, ${l.status}, ${l.amount},
        ${l.shareBps}, ${l.description}, ${l.redirectUrl}, ${json(l.allowedCounts)}, ${json(l.items)}, ${l.payerName},
        ${l.attemptSeq}, ${l.firstOpenedAtMs}, ${l.lastOpenedAtMs}, ${l.expiresAtMs}, ${l.createdAtMs}, ${l.updatedAtMs})`;
  }
}
