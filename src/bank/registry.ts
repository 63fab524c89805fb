import type { Log } from "../deps";
import { createEstAdapter } from "./est/adapter";
import { parseEstConfig } from "./est/config";
import type { BankGateway } from "./gateway";
import { instrument, type BankCall } from "./instrument";
import type { SimBank } from "./sim/sim-bank";

// Product 17: each connection names its bank, and every bank call of a payment goes to the
// adapter of the payment's connection. Adding a bank (Garanti GVP, Posnet, PayFor) is one entry
// in ADAPTERS, its folder under src/bank/, and its object in the seed schema (README "Adding a bank").

/** The connection columns an adapter is built from. */
export interface ConnectionBank {
  id: string;
  bank: string;
  bankConfig: string | null;
}

export interface AdapterEnv {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  log: Log;
}

type AdapterFactory = (connection: ConnectionBank, env: AdapterEnv) => BankGateway;

const ADAPTERS: Readonly<Record<string, AdapterFactory>> = {
  est: (c, env) => createEstAdapter(parseEstConfig(c.id, c.bankConfig), { fetch: env.fetch }),
};

/** Bank values a seed file may name besides `sim`. */
export const REAL_BANKS = Object.keys(ADAPTERS);

export interface BankRegistry {
  /** The built-in simulated bank: connections with `"bank": "sim"`, and its ACS pages (tests may swap it). */
  sim: SimBank;
  forConnection(connection: ConnectionBank): BankGateway;
  /** product 19 metrics: told every bank call (bank, operation, outcome, latency). */
  observeCalls(observer: (call: BankCall) => void): void;
}

export function createBankRegistry(sim: SimBank, env: AdapterEnv): BankRegistry {
  // One adapter per connection, rebuilt when its settings change (a seed run by the CLI).
  const built = new Map<string, { key: string; adapter: BankGateway }>();
  let observer: (call: BankCall) => void = () => {};
  const report = (call: BankCall) => observer(call);
  const registry: BankRegistry = {
    sim: instrument(sim, report),
    observeCalls(next) {
      observer = next;
    },
    forConnection(c) {
      if (c.bank === "sim") return registry.sim;
      const key = `${c.bank}\u0000${c.bankConfig ?? ""}`;
      const hit = built.get(c.id);
      if (hit?.key === key) return hit.adapter;
      const factory = ADAPTERS[c.bank];
      if (!factory) throw new Error(`connection ${c.id}: no adapter for bank "${c.bank}"`);
      const adapter = instrument(factory(c, env), report);
      built.set(c.id, { key, adapter });
      return adapter;
    },
  };
  return registry;
}
