import type { Db } from "./db-types";
import { secretBox, type SecretBox } from "../secret-box";
import { secretAad } from "./secrets-sql";
import type { ApiKeyRow, PartnerRow } from "../rows";

const PARTNER_COLUMNS = `id, name, status, allowed_redirect_hosts AS allowedRedirectHosts, amount_min AS amountMin,
  amount_max AS amountMax, card_attempt_limit AS cardAttemptLimit, installment_cap AS installmentCap,
  webhook_url AS webhookUrl, webhook_secret AS webhookSecret, rate_limit_multiplier AS rateLimitMultiplier,
  payout_account AS payoutAccount, created_at_ms AS createdAtMs`;

const KEY_COLUMNS = `id, partner_id AS partnerId, key_hash AS keyHash, key_hint AS keyHint,
  created_at_ms AS createdAtMs, revoked_at_ms AS revokedAtMs`;

type RawPartner = Omit<PartnerRow, "allowedRedirectHosts"> & { allowedRedirectHosts: string | null };

const SECRET = (id: string) => secretAad("partners", "webhook_secret", id);

export function partnersSql(db: Db, box: SecretBox = secretBox(null)) {
  const toPartnerRow = (r: RawPartner | undefined): PartnerRow | undefined =>
    r && {
      ...r,
      allowedRedirectHosts: r.allowedRedirectHosts === null ? null : (JSON.parse(r.allowedRedirectHosts) as string[]),
      webhookSecret: box.open(r.webhookSecret, SECRET(r.id)),
    };
  return {
    get: (id: string) => toPartnerRow(db.prepare(`SELECT ${PARTNER_COLUMNS} FROM partners WHERE id = ?`).get<RawPartner>(id)),
    list: () =>
      db
        .prepare(`SELECT ${PARTNER_COLUMNS} FROM partners ORDER BY id`)
        .all<RawPartner>()
        .map((r) => toPartnerRow(r) as PartnerRow),
    upsert(p: PartnerRow): void {
      db.prepare(
        `INSERT INTO partners (id, name, status, allowed_redirect_hosts, amount_min, amount_max, card_attempt_limit,
           installment_cap, webhook_url, webhook_secret, rate_limit_multiplier, payout_account, created_at_ms)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status,
           allowed_redirect_hosts = excluded.allowed_redirect_hosts, amount_min = excluded.amount_min,
           amount_max = excluded.amount_max, card_attempt_limit = excluded.card_attempt_limit,
           installment_cap = excluded.installment_cap, webhook_url = excluded.webhook_url,
           webhook_secret = excluded.webhook_secret, rate_limit_multiplier = excluded.rate_limit_multiplier,
           payout_account = excluded.payout_account`,
      ).run(
        p.id,
        p.name,
        p.status,
        p.allowedRedirectHosts === null ? null : JSON.stringify(p.allowedRedirectHosts),
        p.amountMin,
        p.amountMax,
        p.cardAttemptLimit,
        p.installmentCap,
        p.webhookUrl,
        box.seal(p.webhookSecret, SECRET(p.id)),
        p.rateLimitMultiplier,
        p.payoutAccount,
        p.createdAtMs,
      );
    },
    /** Issues the next partnerReference of the partner's links (docs/contract.md, The link record). */
    nextLinkReference(partnerId: string): number {
      db.prepare("UPDATE partners SET link_seq = link_seq + 1 WHERE id = ?").run(partnerId);
      const row = db.prepare("SELECT link_seq AS seq FROM partners WHERE id = ?").get<{ seq: number }>(partnerId);
      return row?.seq ?? 0;
    },
  };
}

export function apiKeysSql(db: Db) {
  return {
    byHash: (keyHash: string) => db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = ?`).get<ApiKeyRow>(keyHash),
    get: (id: string) => db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`).get<ApiKeyRow>(id),
    list: (partnerId: string | null) =>
      partnerId === null
        ? db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY partner_id, created_at_ms`).all<ApiKeyRow>()
        : db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE partner_id = ? ORDER BY created_at_ms`).all<ApiKeyRow>(partnerId),
    /** Idempotent: registering the same key again (same hash) changes nothing. */
    insert(k: ApiKeyRow): boolean {
      const r = db
        .prepare(
          `INSERT INTO api_keys (id, partner_id, key_hash, key_hint, created_at_ms, revoked_at_ms)
           VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key_hash) DO NOTHING`,
        )
        .run(k.id, k.partnerId, k.keyHash, k.keyHint, k.createdAtMs, k.revokedAtMs);
      return r.changes === 1;
    },
    revoke: (id: string, atMs: number) =>
      db.prepare("UPDATE api_keys SET revoked_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL").run(atMs, id).changes === 1,
  };
}
