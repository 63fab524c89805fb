import type { Log } from "../log-port";
import type { Sensitive } from "../sensitive";
import type { AgreementRow, ApiKeyRow, BinRow, ConnectionRow, HoldRow, PartnerRow, PspRow, TerminalRow } from "./rows";
import type { PaymentPatch, PayoutBatchRow, PayoutStatus, RefundPatch, RefundRow } from "./rows-money";
import type { SecretBox } from "./secret-box";
import type { ReconcileOps } from "./reconcile-ops";
import type { AttemptsOps, BankOps, OperatorOps, PaymentsOps, RefundsOps, SettlementOps } from "./money-ops";
import type { LinkCheckoutOps, LinksOps, WebhookTailOps, WebhooksOps } from "./links-ops";
import type { LoginFailuresOps, PanelAuditOps, PanelOps, PanelSessionsOps, PanelUsersOps } from "./panel-ops";

// The store interface (issue 18): what the domain, the HTTP layer and the CLI may ask of a
// database, declared once. `src/store/sqlite/` is its implementation today (group commit on one
// SQLite file); a PostgreSQL implementation (docs/postgresql.md) implements the same declarations, so a
// feature is written once. Nothing outside src/store/ writes SQL or imports a driver.
//
// Every operation is asynchronous because a PostgreSQL driver is: on SQLite each one settles at
// once, which is what lets a batch of units run from BEGIN to COMMIT without yielding.

/**
 * A unit of work: it awaits only its own repo calls (never a timer, a fetch or a bank call: on
 * SQLite the store fails a unit that does, see sqlite/unit-scope.ts), and either all its writes
 * commit or none do.
 */
/**
 * A unit of work. `lane` (optional) names what it will lock, e.g. `terminal:T-1`: on PostgreSQL,
 * units of one lane share a runner, so units contending for the same row are committed together
 * (docs/postgresql.md, Group commit); SQLite's single writer ignores it.
 */
export type Unit<T> = ((tx: Repos) => Promise<T>) & { lane?: string };

/**
 * The lane of a unit that normally locks no row another unit of its kind needs, such as a create
 * payment admitted within its runner's reservation of the connection's room (docs/postgresql.md,
 * "Connection limits across instances"): on PostgreSQL it joins the least busy runner.
 */
export const ANY_LANE = "*";

/** A unit that will lock what `lane` names (see `Unit`). */
export const inLane = <T>(lane: string, unit: (tx: Repos) => Promise<T>): Unit<T> => Object.assign(unit, { lane });

export interface Store {
  /**
   * Reads outside units of work. They only ever see committed rows. (Calling a write operation
   * here would commit it on its own: writes go through `write`.)
   */
  readonly q: Repos;
  /**
   * Whether other kasa instances may write to this database at the same time (docs/postgresql.md:
   * PostgreSQL). Their timers then also poll it for due rows they did not schedule themselves.
   */
  readonly shared: boolean;
  /**
   * Runs one unit of work and resolves after its COMMIT is durable. On SQLite (DESIGN.md request
   * flow 4): every unit queued in one event-loop turn runs in ONE `BEGIN IMMEDIATE` transaction,
   * one after another, each in its own SAVEPOINT (a unit that throws rolls back and rejects
   * alone); promises settle only after COMMIT with synchronous=FULL.
   */
  write<T>(unit: Unit<T>): Promise<T>;
  /** `kasa rotate-master-key`: every secret re-sealed under `next` (null: back to clear); how many. Reopen after. */
  rotateMasterKey(next: Buffer | null): Promise<number>;
  readonly stats: { batches: number; units: number };
  /** docs/operating.md metrics: told each commit's size (units) and how long it took (ms). */
  observeBatches(observer: (units: number, ms: number) => void): void;
  /** Lets every queued unit commit, then closes the connection. */
  close(): Promise<void>;
}

export type OpenOptions = {
  /** SQLite: the driver (default: the running runtime's). */
  driver?: "bun" | "node";
  /** docs/operating.md: seals webhook secrets and bank settings at rest (AES-256-GCM); null keeps them in clear. */
  masterKey?: Buffer | null;
  /** PostgreSQL: the password when the URL has none (`--db-password-file`); else $PGPASSWORD. */
  pgPassword?: Sensitive<string> | null;
  /** Where a unit that broke the rules of a unit is reported. */
  log?: Log;
};

/** Every named operation, grouped by resource. A unit of work receives this as `tx`. */
export interface Repos {
  meta: MetaOps;
  secrets: SecretsOps;
  partners: PartnersOps;
  apiKeys: ApiKeysOps;
  catalog: CatalogOps;
  acceptance: AcceptanceOps;
  webhooks: WebhooksOps;
  webhookTail: WebhookTailOps;
  links: LinksOps;
  linkCheckout: LinkCheckoutOps;
  payments: PaymentsOps;
  attempts: AttemptsOps;
  bank: BankOps;
  operator: OperatorOps;
  refunds: RefundsOps;
  settlement: SettlementOps;
  panelUsers: PanelUsersOps;
  panelSessions: PanelSessionsOps;
  panelAudit: PanelAuditOps;
  loginFailures: LoginFailuresOps;
  panel: PanelOps;
  metrics: MetricsOps;
  reconcile: ReconcileOps;
  fixtures: FixturesOps;
}

export interface MetaOps {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  /** Inserts only when absent; answers the value that is now stored. */
  setOnce(key: string, value: string): Promise<string>;
  /**
   * docs/postgresql.md rate-limit shares: renews this instance's heartbeat until `untilMs` (an instant at
   * or before `nowMs` takes it out), forgets every heartbeat that ran out by `nowMs`, and answers
   * the live instances' ids in byte order. Wall-clock instants, never the sandbox clock.
   */
  heartbeat(instanceId: string, untilMs: number, nowMs: number): Promise<string[]>;
}

export interface SecretsOps {
  /** The id of the master key the database's secrets are sealed with; null while they are in clear. */
  sealedBy(): Promise<string | null>;
  /**
   * Every secret opened with `from` and sealed with `to` (in clear when `to` has no key), and the
   * key recorded; the caller runs it in one transaction. Answers how many values it rewrote.
   */
  reseal(from: SecretBox, to: SecretBox): Promise<number>;
  /**
   * A bank's own signing secret (meta `<bank>.secret`), made once per database from `fresh` and
   * sealed at rest like every other secret; answers the secret in clear.
   */
  bankSecret(bank: string, fresh: string): Promise<string>;
}

export interface PartnersOps {
  get(id: string): Promise<PartnerRow | undefined>;
  list(): Promise<PartnerRow[]>;
  upsert(p: PartnerRow): Promise<void>;
  /** Issues the next partnerReference of the partner's links (docs/contract.md, The link record). */
  nextLinkReference(partnerId: string): Promise<number>;
}

export interface ApiKeysOps {
  byHash(keyHash: string): Promise<ApiKeyRow | undefined>;
  get(id: string): Promise<ApiKeyRow | undefined>;
  list(partnerId: string | null): Promise<ApiKeyRow[]>;
  /** Idempotent: registering the same key again (same hash) changes nothing. */
  insert(k: ApiKeyRow): Promise<boolean>;
  revoke(id: string, atMs: number): Promise<boolean>;
}

export interface CatalogOps {
  psp(id: string): Promise<PspRow | undefined>;
  connection(id: string): Promise<ConnectionRow | undefined>;
  terminal(id: string): Promise<TerminalRow | undefined>;
  upsertPsp(p: PspRow): Promise<void>;
  connections(): Promise<ConnectionRow[]>;
  upsertConnection(
    c: Omit<ConnectionRow, "bankConfig" | "breaker"> & { bankConfig?: string | null; breaker?: ConnectionRow["breaker"] },
  ): Promise<void>;
  terminals(partnerId: string | null): Promise<TerminalRow[]>;
  upsertTerminal(t: Omit<TerminalRow, "routing"> & { routing?: TerminalRow["routing"] }): Promise<void>;
  bin(bin: string): Promise<BinRow | undefined>;
  binCount(): Promise<number>;
  upsertBin(r: BinRow): Promise<void>;
}

export interface AcceptanceOps {
  /**
   * The hot-path guard (every new payment and link): is any hold effective now? An admin hold
   * always is; agreements_pending is once an unaccepted agreement's deadline has come (the
   * earliest deadline <= now). One indexed EXISTS, about 20x cheaper than reading both lists.
   */
  blocksPayments(partnerId: string, nowMs: number): Promise<boolean>;
  holds(partnerId: string): Promise<HoldRow[]>;
  /** Setting a hold that is already set keeps its original `since`. */
  setHold(h: HoldRow): Promise<boolean>;
  clearHold(partnerId: string, reason: string): Promise<boolean>;
  agreements(partnerId: string): Promise<AgreementRow[]>;
  agreement(partnerId: string, code: string, version: string): Promise<AgreementRow | undefined>;
  upsertAgreement(a: AgreementRow): Promise<void>;
  accept(partnerId: string, code: string, atMs: number): Promise<number>;
}

export interface MetricsOps {
  /** Webhook outbox rows still to be delivered (the deliveries_due index answers it). */
  pendingDeliveries(): Promise<number>;
  /** The trigger-kept counts of one family (schema.sql `metric_counts`), by label. */
  counts(family: "payment" | "refund" | "delivery"): Promise<{ label: string; n: number }[]>;
}

/**
 * Tests only (issue 18: a test asks the store by name, never in SQL). Reads no feature needs, and
 * writes that reach states no transition makes, so they skip every transition's checks; the
 * service never calls them.
 */
export interface FixturesOps {
  /** Tests: how many payments exist, whatever their state (a refused request must add none). */
  paymentCount(): Promise<number>;
  /** Tests: how many payment links exist, whatever their state (a refused create must add none). */
  linkCount(): Promise<number>;
  /** Tests: every PSP in id order (the catalog reads one PSP at a time). */
  psps(): Promise<PspRow[]>;
  /** Tests: the whole BIN table in BIN order (a refused seed must change none of it). */
  bins(): Promise<BinRow[]>;
  /** Tests: every day whose day end ran, oldest first (each runs exactly once, docs/contract.md, The sandbox). */
  dayEnds(): Promise<string[]>;
  /** Tests: overwrites the given columns of one payment (a forced status, a net near 2^53, a row damaged for `kasa check`). */
  patchPayment(code: string, patch: PaymentPatch): Promise<boolean>;
  /** Tests: overwrites the given columns of one refund (moved to another payment, or above its capture, for `kasa check`). */
  patchRefund(id: string, patch: RefundPatch): Promise<boolean>;
  /** Tests: sets a payout batch's status as given (a paid batch made pending again, to mark it by hand). */
  forcePayoutStatus(id: string, status: PayoutStatus): Promise<boolean>;
  /** Tests: a refund row in any state, as given (an approved refund already netted in a payout). */
  insertRefund(r: RefundRow): Promise<void>;
  /** Tests: a payout batch row in any state, as given. */
  insertPayoutBatch(b: PayoutBatchRow): Promise<void>;
  /** Tests: deletes every payment and what hangs off it (attempts, refunds, outbox rows): a database changed since its backup. */
  deletePayments(): Promise<void>;
}
