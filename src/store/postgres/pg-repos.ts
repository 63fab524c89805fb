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
  return lazyGroups<Repos>({
    meta: () => metaPg(sql),
    secrets: () => secretsPg(sql, box),
    partners: () => partnersPg(sql, box),
    apiKeys: () => apiKeysPg(sql),
    catalog: () => catalogPg(sql, box),
    acceptance: () => acceptancePg(sql),
    webhooks: () => webhooksPg(sql),
    webhookTail: () => webhookTailPg(sql),
    links: () => linksPg(sql),
    linkCheckout: () => linkCheckoutPg(sql),
    payments: () => paymentsPg(sql, holder),
    attempts: () => attemptsPg(sql),
    bank: () => bankPg(sql),
    operator: () => operatorPg(sql),
    refunds: () => refundsPg(sql),
    settlement: () => settlementPg(sql),
    panelUsers: () => panelUsersPg(sql),
    panelSessions: () => panelSessionsPg(sql),
    panelAudit: () => panelAuditPg(sql),
    loginFailures: () => loginFailuresPg(sql),
    panel: () => panelPg(sql),
    metrics: () => metricsPg(sql),
    reconcile: () => reconcilePg(sql),
    fixtures: () => fixturesPg(sql),
  });
}

/**
 * An object whose groups are made on first use and kept: a unit of a batch gets repos of its own
 * (its savepoint's `sql`) and uses two or three of the two dozen groups (issue 37: making them all
 * was 5% of a create's CPU on PostgreSQL).
 */
export function lazyGroups<T extends object>(make: { [K in keyof T]: () => T[K] }): T {
  const out = {} as T;
  for (const key of Object.keys(make) as (keyof T & string)[]) {
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = make[key]();
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        return value;
      },
    });
  }
  return out;
}
