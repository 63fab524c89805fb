import type { Db } from "./db";
import { acceptanceSql } from "./acceptance-sql";
import { attemptsSql } from "./attempts-sql";
import { catalogSql } from "./catalog-sql";
import { linkCheckoutSql } from "./link-checkout-sql";
import { linksSql } from "./links-sql";
import { metaSql } from "./meta-sql";
import { operatorSql } from "./operator-sql";
import { apiKeysSql, partnersSql } from "./partners-sql";
import { paymentsSql } from "./payments-sql";
import { refundsSql } from "./refunds-sql";
import { settlementSql } from "./settlement-sql";
import { webhooksSql } from "./webhooks-sql";
import { panelSql } from "./panel-sql";
import { panelAuditSql, panelSessionsSql, panelUsersSql } from "./users-sql";

/** Every named SQL operation, grouped by resource. A unit of work receives this as `tx`. */
export function createRepos(db: Db) {
  return {
    meta: metaSql(db),
    partners: partnersSql(db),
    apiKeys: apiKeysSql(db),
    catalog: catalogSql(db),
    acceptance: acceptanceSql(db),
    webhooks: webhooksSql(db),
    links: linksSql(db),
    linkCheckout: linkCheckoutSql(db),
    payments: paymentsSql(db),
    attempts: attemptsSql(db),
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
