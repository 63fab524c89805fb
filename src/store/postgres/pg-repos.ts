import type { SecretBox } from "../secret-box";
import type { Repos } from "../store";
import { acceptancePg } from "./acceptance-pg";
import { attemptsPg } from "./attempts-pg";
import { bankPg } from "./bank-pg";
import { catalogPg } from "./catalog-pg";
import { fixturesPg } from "./fixtures-pg";
import { linkCheckoutPg } from "./link-checkout-pg";
import { linksPg } from "./links-pg";
import { metaPg } from "./meta-pg";
import { metricsPg } from "./metrics-pg";
import { operatorPg } from "./operator-pg";
import { panelPg } from "./panel-pg";
import { apiKeysPg, partnersPg } from "./partners-pg";
import type { Pg } from "./pg";
import { paymentsPg } from "./payments-pg";
import { NO_HOLDER, type RoomHolder } from "./room-reservations-pg";
import { reconcilePg } from "./reconcile-pg";
import { refundsPg } from "./refunds-pg";
import { secretsPg } from "./secrets-pg";
import { settlementPg } from "./settlement-pg";
import { loginFailuresPg } from "./login-failures-pg";
import { panelAuditPg, panelSessionsPg, panelUsersPg } from "./users-pg";
import { webhookTailPg } from "./webhook-tail-pg";
import { webhooksPg } from "./webhooks-pg";

/**
 * Every named operation on PostgreSQL, bound to `sql`: the pool for `store.q`, a unit's own
 * transaction for `tx`. The compiler checks it is the whole declared interface (src/store/store.ts).
 * `holder` is the running instance that reserves room of connections' limits for its creates
 * (room-reservations-pg.ts); without one, every limit check is the exact one.
 */
export function createPgRepos(sql: Pg, box: SecretBox, holder: RoomHolder = NO_HOLDER): Repos {
  return {
    meta: metaPg(sql),
    secrets: secretsPg(sql, box),
    partners: partnersPg(sql, box),
    apiKeys: apiKeysPg(sql),
    catalog: catalogPg(sql, box),
    acceptance: acceptancePg(sql),
    webhooks: webhooksPg(sql),
    webhookTail: webhookTailPg(sql),
    links: linksPg(sql),
    linkCheckout: linkCheckoutPg(sql),
    payments: paymentsPg(sql, holder),
    attempts: attemptsPg(sql),
    bank: bankPg(sql),
    operator: operatorPg(sql),
    refunds: refundsPg(sql),
    settlement: settlementPg(sql),
    panelUsers: panelUsersPg(sql),
    panelSessions: panelSessionsPg(sql),
    panelAudit: panelAuditPg(sql),
    loginFailures: loginFailuresPg(sql),
    panel: panelPg(sql),
    metrics: metricsPg(sql),
    reconcile: reconcilePg(sql),
    fixtures: fixturesPg(sql),
  };
}
