import { secretBox, type SecretBox } from "../secret-box";
import { secretAad } from "../sqlite/secrets-sql";
import type { ApiKeyRow, PartnerRow } from "../rows";
import type { ApiKeysOps, PartnersOps } from "../store";
import type { Pg } from "./pg";

// Partners and their API keys on PostgreSQL. Aliases are quoted: PostgreSQL folds unquoted names to
// lower case. Text sort keys are compared by bytes (COLLATE "C") as SQLite's BINARY does, whatever
// the database's locale.

const PARTNER_COLUMNS = `id, name, status, allowed_redirect_hosts AS "allowedRedirectHosts", amount_min AS "amountMin",
  amount_max AS "amountMax", card_attempt_limit AS "cardAttemptLimit", installment_cap AS "installmentCap",
  webhook_url AS "webhookUrl", webhook_secret AS "webhookSecret", rate_limit_multiplier AS "rateLimitMultiplier",
  payout_account AS "payoutAccount", created_at_ms AS "createdAtMs"`;

const KEY_COLUMNS = `id, partner_id AS "partnerId", key_hash AS "keyHash", key_hint AS "keyHint",
  created_at_ms AS "createdAtMs", revoked_at_ms AS "revokedAtMs"`;

type RawPartner = Omit<PartnerRow, "allowedRedirectHosts"> & { allowedRedirectHosts: string | null };

const SECRET = (id: string) => secretAad("partners", "webhook_secret", id);

export function partnersPg(sql: Pg, box: SecretBox = secretBox(null)): PartnersOps {
  const cols = () => sql.unsafe(PARTNER_COLUMNS);
  const toPartnerRow = (r: RawPartner): PartnerRow => ({
    ...r,
    allowedRedirectHosts: r.allowedRedirectHosts === null ? null : (JSON.parse(r.allowedRedirectHosts) as string[]),
    webhookSecret: box.open(r.webhookSecret, SECRET(r.id)),
  });
  return {
    async get(id) {
      const r = (await sql<RawPartner[]>`SELECT ${cols()} FROM partners WHERE id = ${id}`)[0];
      return r && toPartnerRow(r);
    },
    list: async () => (await sql<RawPartner[]>`SELECT ${cols()} FROM partners ORDER BY id COLLATE "C"`).map(toPartnerRow),
    async upsert(p) {
      await sql`
        INSERT INTO partners (id, name, status, allowed_redirect_hosts, amount_min, amount_max, card_attempt_limit,
          installment_cap, webhook_url, webhook_secret, rate_limit_multiplier, payout_account, created_at_ms)
        VALUES (${p.id}, ${p.name}, ${p.status},
          ${p.allowedRedirectHosts === null ? null : JSON.stringify(p.allowedRedirectHosts)}, ${p.amountMin}, ${p.amountMax},
          ${p.cardAttemptLimit}, ${p.installmentCap}, ${p.webhookUrl}, ${box.seal(p.webhookSecret, SECRET(p.id))},
          ${p.rateLimitMultiplier}, ${p.payoutAccount}, ${p.createdAtMs})
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status,
          allowed_redirect_hosts = excluded.allowed_redirect_hosts, amount_min = excluded.amount_min,
          amount_max = excluded.amount_max, card_attempt_limit = excluded.card_attempt_limit,
          installment_cap = excluded.installment_cap, webhook_url = excluded.webhook_url,
          webhook_secret = excluded.webhook_secret, rate_limit_multiplier = excluded.rate_limit_multiplier,
          payout_account = excluded.payout_account`;
    },
    // SQLite increments then reads back inside its single writer; one UPDATE ... RETURNING is the
    // same atomic step here (the row lock orders concurrent callers, each gets its own number).
    nextLinkReference: async (partnerId) =>
      (await sql<{ seq: number }[]>`UPDATE partners SET link_seq = link_seq + 1 WHERE id = ${partnerId} RETURNING link_seq AS seq`)[0]
        ?.seq ?? 0,
  };
}

export function apiKeysPg(sql: Pg): ApiKeysOps {
  const cols = () => sql.unsafe(KEY_COLUMNS);
  return {
    byHash: async (keyHash) => (await sql<ApiKeyRow[]>`SELECT ${cols()} FROM api_keys WHERE key_hash = ${keyHash}`)[0],
    get: async (id) => (await sql<ApiKeyRow[]>`SELECT ${cols()} FROM api_keys WHERE id = ${id}`)[0],
    list: async (partnerId) => [
      ...(partnerId === null
        ? await sql<ApiKeyRow[]>`SELECT ${cols()} FROM api_keys ORDER BY partner_id COLLATE "C", created_at_ms`
        : await sql<ApiKeyRow[]>`SELECT ${cols()} FROM api_keys WHERE partner_id = ${partnerId} ORDER BY created_at_ms`),
    ],
    async insert(k) {
      const r = await sql`
        INSERT INTO api_keys (id, partner_id, key_hash, key_hint, created_at_ms, revoked_at_ms)
        VALUES (${k.id}, ${k.partnerId}, ${k.keyHash}, ${k.keyHint}, ${k.createdAtMs}, ${k.revokedAtMs})
        ON CONFLICT (key_hash) DO NOTHING`;
      return r.count === 1;
    },
    revoke: async (id, atMs) =>
      (await sql`UPDATE api_keys SET revoked_at_ms = ${atMs} WHERE id = ${id} AND revoked_at_ms IS NULL`).count === 1,
  };
}
