import { wallNowMs } from "../clock";
import type { Log } from "../log-port";
import type { Sensitive } from "../sensitive";
import type { BankGateway } from "./gateway";
import { createConnectionHealth, type ConnectionHealth } from "./health/breaker";
import { createOutages, type Outages } from "./health/outages";
import { watchConnection } from "./health/watch";
import { instrument, type BankCall } from "./instrument";
import type { BankModule, BankReconciler, ConnectionBank } from "./module";
import { bankOf, defaultBank, payingBank } from "./registry";

// The banks of one running kasa (deps.banks): each connection's bank is reached by its adapter,
// built from the connection's descriptor and settings, and every bank call of a payment goes to
// the adapter of the payment's connection (docs/banks.md).

export interface BanksEnv {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  log: Log;
  baseUrl: string;
  /** The per-database secret of each bank that asks for one (BankModule.secret), by bank id. */
  secrets: ReadonlyMap<string, Sensitive<string>>;
  /** The service clock, handed to adapters whose requests carry a time. */
  nowMs?: () => number;
  /** Real time for the breakers and the sandbox's outages (tests move it); the wall clock by default. */
  realNowMs?: () => number;
}

export interface BankRegistry {
  /** The descriptors this kasa runs with (the registry's list, or a test's). */
  readonly modules: readonly BankModule[];
  /**
   * The default bank's gateway (the simulated bank). A test may replace it: every connection of
   * that bank is then served by the replacement.
   */
  sim: BankGateway;
  /**
   * The gateway of one connection: its bank's adapter, watched per connection (its calls feed the
   * connection's breaker; a sandbox outage of the connection fails them).
   */
  forConnection(connection: ConnectionBank): BankGateway;
  /** The connection's reconciliation facet (docs/reconciliation.md); a bank without one answers `unknown` to everything. */
  reconciler(connection: ConnectionBank): BankReconciler;
  /** The gateway of a bank without settings (its simulator's pages, its payouts). */
  forBank(bankId: string): BankGateway;
  /** The gateway that pays a batch of captures through these banks, or null: an operator transfers it. */
  payoutGateway(bankIds: readonly string[]): BankGateway | null;
  /** The service metrics (docs/operating.md): told every bank call (bank, operation, outcome, latency). */
  observeCalls(observer: (call: BankCall) => void): void;
  /** Each connection's breaker (docs/operating.md, Health), fed by forConnection's gateways. */
  readonly health: ConnectionHealth;
  /** The sandbox's simulated outages per connection. */
  readonly outages: Outages;
}

export function createBanks(modules: readonly BankModule[], env: BanksEnv): BankRegistry {
  // One adapter per connection, rebuilt when its settings change (a seed run by the CLI); a bank
  // without settings serves all its connections with one adapter.
  const built = new Map<string, { key: string; adapter: BankGateway }>();
  const replaced = new Map<string, BankGateway>();
  let observer: (call: BankCall) => void = () => {};
  const report = (call: BankCall) => observer(call);
  const fallback = defaultBank(modules);
  const realNowMs = env.realNowMs ?? wallNowMs;
  const health = createConnectionHealth({ nowMs: realNowMs });
  const outages = createOutages({ nowMs: realNowMs });
  const watched = new Map<string, { inner: BankGateway; gateway: BankGateway }>();

  function adapterOf(c: ConnectionBank): BankGateway {
    const swapped = replaced.get(c.bank);
    if (swapped) return swapped;
    const module = bankOf(c.bank, modules);
    const slot = c.bankConfig === null ? `\u0000${c.bank}` : c.id;
    const key = `${c.bank}\u0000${c.bankConfig ?? ""}`;
    const hit = built.get(slot);
    if (hit?.key === key) return hit.adapter;
    const adapter = instrument(
      module.createAdapter(c, {
        fetch: env.fetch,
        log: env.log,
        baseUrl: env.baseUrl,
        secret: env.secrets.get(module.id) ?? null,
        nowMs: env.nowMs,
      }),
      report,
    );
    built.set(slot, { key, adapter });
    return adapter;
  }

  // Rewatched when the adapter underneath changes (new settings, or a test's replacement).
  function forConnection(c: ConnectionBank): BankGateway {
    const inner = adapterOf(c);
    health.configure(c.id, c.breaker ?? null);
    const hit = watched.get(c.id);
    if (hit?.inner === inner) return hit.gateway;
    const gateway = watchConnection(inner, c.id, { health, outages, realNowMs, report });
    watched.set(c.id, { inner, gateway });
    return gateway;
  }

  const unknown = async () => ({ status: "unknown" as const, amount: null, reference: null });
  function reconciler(c: ConnectionBank): BankReconciler {
    const module = bankOf(c.bank, modules);
    if (!module.reconcile) return { order: unknown, refund: unknown };
    const adapterEnv = {
      fetch: env.fetch,
      log: env.log,
      baseUrl: env.baseUrl,
      secret: env.secrets.get(module.id) ?? null,
      nowMs: env.nowMs,
    };
    return module.reconcile(c, adapterEnv, forConnection(c));
  }

  // A bank that pays its own batches does so without a connection's settings, and without a
  // connection's breaker; so do its simulator's pages.
  const forBank = (bankId: string): BankGateway => adapterOf({ id: `\u0000${bankId}`, bank: bankId, bankConfig: null });

  return {
    modules,
    get sim() {
      return forBank(fallback.id);
    },
    set sim(gateway: BankGateway) {
      replaced.set(fallback.id, gateway);
    },
    forConnection,
    reconciler,
    forBank,
    payoutGateway(bankIds) {
      const payer = payingBank(bankIds, modules);
      return payer ? forBank(payer.id) : null;
    },
    observeCalls(next) {
      observer = next;
    },
    health,
    outages,
  };
}
