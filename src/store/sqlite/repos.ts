import type { Repos } from "../store";
import type { Db } from "./db-types";
import { acceptanceSql } from "./acceptance-sql";
import { attemptsSql } from "./attempts-sql";
import { bankSql } from "./bank-sql";
import { catalogCache, type CatalogCache } from "./catalog-cache";
import { catalogSql } from "./catalog-sql";
import { fixturesSql } from "./fixtures-sql";
import { secretBox, type SecretBox } from "../secret-box";
import { secretsSql } from "./secrets-sql";
import { linkCheckoutSql } from "./link-checkout-sql";
import { linksSql } from "./links-sql";
import { metaSql } from "./meta-sql";
import { metricsSql } from "./metrics-sql";
import { operatorSql } from "./operator-sql";
import { apiKeysSql, partnersSql } from "./partners-sql";
import { paymentsSql } from "./payments-sql";
import { reconcileSql } from "./reconcile-sql";
import { refundsSql } from "./refunds-sql";
import { settlementSql } from "./settlement-sql";
import { webhookTailSql } from "./webhook-tail-sql";
import { webhooksSql } from "./webhooks-sql";
import { panelSql } from "./panel-sql";
import { loginFailuresSql } from "./login-failures-sql";
import { panelAuditSql, panelSessionsSql, panelUsersSql } from "./users-sql";

/** Row locks (store.ts `lock`): SQLite's single writer runs one unit at a time, so there is nothing to take. */
const unlocked = (_key: string): void => {};

/** Every named SQL operation, grouped by resource, as SQLite runs them: synchronously. */
export function createSqlRepos(db: Db, cache: CatalogCache = catalogCache(db), box: SecretBox = secretBox(null)) {
  const partners = partnersSql(db, box);
  const apiKeys = apiKeysSql(db);
  const catalog = catalogSql(db, box);
  return {
    meta: metaSql(db),
    secrets: secretsSql(db, box),
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
    links: { ...linksSql(db), lock: unlocked },
    linkCheckout: linkCheckoutSql(db),
    payments: { ...paymentsSql(db), lock: unlocked },
    attempts: { ...attemptsSql(db), lock: unlocked },
    bank: bankSql(db),
    operator: operatorSql(db),
    refunds: refundsSql(db),
    settlement: settlementSql(db),
    panelUsers: panelUsersSql(db),
    panelSessions: panelSessionsSql(db),
    panelAudit: panelAuditSql(db),
    loginFailures: loginFailuresSql(db),
    panel: panelSql(db),
    metrics: metricsSql(db),
    reconcile: reconcileSql(db),
    // Tests only (store.ts FixturesOps): nothing the service runs calls them.
    fixtures: fixturesSql(db),
  };
}

export type SqlRepos = ReturnType<typeof createSqlRepos>;

type Op = (...args: never[]) => unknown;
/** The same operations as the declared interface has them: every one returns a Promise (issue 18). */
export type AsyncGroup<G> = { [K in keyof G]: G[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never };
export type AsyncRepos<R> = { [K in keyof R]: AsyncGroup<R[K]> };

/**
 * SQLite answers synchronously; the interface is asynchronous so that a PostgreSQL store can
 * implement it. A thrown error becomes a rejected promise, so a unit that awaits the call sees it
 * where it made the call, as before.
 */
export function toAsyncRepos(sql: SqlRepos): Repos {
  const out: Record<string, Record<string, Op>> = {};
  for (const [name, group] of Object.entries(sql)) {
    const wrapped: Record<string, Op> = {};
    for (const [op, fn] of Object.entries(group as Record<string, (...args: unknown[]) => unknown>)) {
      wrapped[op] = (...args: unknown[]) => {
        try {
          return Promise.resolve(fn(...args));
        } catch (error) {
          return Promise.reject(error);
        }
      };
    }
    out[name] = wrapped;
  }
  // The compiler checks here that the SQLite operations are exactly the declared ones.
  return out as unknown as AsyncRepos<SqlRepos> satisfies Repos;
}
