import type { Db } from "./db";
import { acceptanceSql } from "./acceptance-sql";
import { attemptsSql } from "./attempts-sql";
import { bankSql } from "./bank-sql";
import { catalogCache, type CatalogCache } from "./catalog-cache";
import { catalogSql } from "./catalog-sql";
import { secretBox, type SecretBox } from "./secret-box";
import { secretsSql } from "./secrets-sql";
import { linkCheckoutSql } from "./link-checkout-sql";
import { linksSql } from "./links-sql";
import { metaSql } from "./meta-sql";
import { operatorSql } from "./operator-sql";
import { apiKeysSql, partnersSql } from "./partners-sql";
import { paymentsSql } from "./payments-sql";
import { refundsSql } from "./refunds-sql";
import { settlementSql } from "./settlement-sql";
import { webhookTailSql } from "./webhook-tail-sql";
import { webhooksSql } from "./webhooks-sql";
import { panelSql } from "./panel-sql";
import { panelAuditSql, panelSessionsSql, panelUsersSql } from "./users-sql";

/** Every named SQL operation, grouped by resource. A unit of work receives this as `tx`. */
export function createRepos(db: Db, cache: CatalogCache = catalogCache(db), box: SecretBox = secretBox(null)) {
  const partners = partnersSql(db, box);
  const apiKeys = apiKeysSql(db);
  const catalog = catalogSql(db, box);
  return {
    meta: metaSql(db),
    secrets: secretsSql(db),
    // Each request's key, partner, terminal, connection and PSP reads come from memory while
    // unchanged (catalog-cache.ts); list operations and writes go to the database.
    partners: { ...partners, get: cache.memo(partners.get) },
    apiKeys: { ...apiKeys, byHash: cache.memo(apiKeys.byHash) },
    catalog: {
      ...catalog,
      psp: cache.memo(catalog.psp),
      connection: cache.memo(catalog.connection),
      terminal: cache.memo(catalog.terminal),
    },
    acceptance: acceptanceSql(db),
    webhooks: webhooksSql(db),
    webhookTail: webhookTailSql(db),
    links: linksSql(db),
    linkCheckout: linkCheckoutSql(db),
    payments: paymentsSql(db),
    attempts: attemptsSql(db),
    bank: bankSql(db),
    operator: operatorSql(db),
    refunds: refundsSql(db),
    settlement: settlementSql(db),
    panelUsers: panelUsersSql(db),
    panelSessions: panelSessionsSql(db),
    panelAudit: panelAuditSql(db),
    panel: panelSql(db),
  };
}

export type Repos = ReturnType<typeof createRepos>;
