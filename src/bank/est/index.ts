import { randomBytes } from "node:crypto";
import type { BankModule, ConnectionBank, DemoContext } from "../module";
import { bankSettings } from "../module";
import { checkEstConnection, createEstAdapter } from "./adapter";
import { createEstReconciler } from "./reconcile";
import { estConfigSchema, parseEstConfig, redactEstConfig, toEstConfig } from "./config";
import { encodeFormBytes } from "../form-bytes";
import { encodeIso88599 } from "../iso-8859-9";
import { EST_SIM_FAULTS } from "./sim/faults";
import { estSimulatorRoutes } from "./sim/routes";
import { estSimulatorSettings } from "./sim/settings";

// The EST / NestPay connector (docs/banks.md; the protocol in src/bank/est/*.ts): settings under
// the seed key "est" with two secrets, an ORDERSTATUS probe for `connections check`, and the
// protocol simulator served by the sandbox under /sim-est/. Payouts are not an acquiring call:
// an operator transfers and marks them.

const demoConnectionId = "vpos-est";
const demoPayConnectionId = "vpos-est-pay";

const estDemoConnection = (psp: string) => ({
  psp,
  bank: "est",
  active: true,
  acceptsForeignCards: true,
  acceptsDebit: true,
  limits: null,
});

const estDemoTerminal = (partner: string) => ({
  partner,
  active: true,
  commissionBasis: "gross" as const,
  installments: [1, 2, 3, 6],
  infrastructure: "standard" as const,
  directCollection: false,
  valueDays: 1,
  bank: "Demo EST Bank",
  rates: [
    { count: 1, rateBps: 199 },
    { count: 2, rateBps: 350 },
    { count: 3, rateBps: 450 },
    { count: 6, rateBps: 690 },
  ],
});

const configOf = (c: ConnectionBank) => parseEstConfig(c.id, c.bankConfig);

export const estBankModule: BankModule = {
  id: "est",
  name: "EST / NestPay",
  settings: bankSettings(estConfigSchema, toEstConfig),
  redact: (c) => redactEstConfig(configOf(c)),
  columns: (c) => {
    const config = configOf(c);
    return { model: config.model, api: config.apiUrl };
  },
  async check(c, env) {
    const config = configOf(c);
    const orderId = `CHK${randomBytes(8).toString("hex").toUpperCase()}`;
    const result = await checkEstConnection(config, { fetch: env.fetch }, orderId, env.nowMs);
    return { ...result, target: config.apiUrl, facts: { apiUrl: config.apiUrl, orderId } };
  },
  secret: false,
  createAdapter: (c, env) => createEstAdapter(configOf(c), { fetch: env.fetch }),
  reconcile: (c, env) => createEstReconciler(configOf(c), { fetch: env.fetch }),
  simulator: { serve: "sandbox", routes: estSimulatorRoutes },
  demo: {
    // The same test cards, through the EST / NestPay protocol and the simulator the sandbox serves.
    connections: ({ baseUrl, psp }: DemoContext) => [
      { ...estDemoConnection(psp), id: demoConnectionId, est: estSimulatorSettings(baseUrl, "3d", 10_000) },
      // The 3D Pay model: the gate charges, the callback carries the result (`.96`: it never comes).
      { ...estDemoConnection(psp), id: demoPayConnectionId, est: estSimulatorSettings(baseUrl, "3d_pay", 10_000) },
    ],
    terminals: ({ partner }: DemoContext) => [
      { ...estDemoTerminal(partner), id: "T-3001", connection: demoConnectionId },
      { ...estDemoTerminal(partner), id: "T-3002", connection: demoPayConnectionId },
    ],
    bannerTerminals: ({ baseUrl }) => [
      `T-3001 (EST / NestPay protocol, model 3d, against the built-in EST simulator at ${baseUrl}/sim-est/)`,
      "T-3002 (EST / NestPay protocol, model 3d_pay: the gate charges; the same simulator)",
    ],
    bannerNotes: () => [
      `EST simulator faults (T-3001, T-3002, by the amount's kuruş): ${Object.entries(EST_SIM_FAULTS)
        .map(([k, d]) => `${k} ${d}`)
        .join("; ")}`,
    ],
  },
  payouts: "operator",
  // The gate answers straight to the callback: the buyer types nothing.
  buyer: null,
  // The callback form asks for ISO-8859-9, as EST's real gate does.
  formCharsets: {
    "iso-8859-9": (pairs) => encodeFormBytes(pairs.map(([name, value]) => [name, encodeIso88599(value)] as const)),
  },
};
