import { randomBytes } from "node:crypto";
import { createAkbankReconciler } from "./reconcile";
import { systemClock } from "../../clock";
import type { BankModule, ConnectionBank, DemoContext } from "../module";
import { bankSettings } from "../module";
import { createAkbankAdapter } from "./adapter";
import { checkAkbankConnection } from "./check";
import { akbankConfigSchema, parseAkbankConfig, processUrl, redactAkbankConfig, toAkbankConfig } from "./config";
import { AKBANK_SIM_FAULTS } from "./sim/faults";
import { akbankSimulatorRoutes } from "./sim/routes";
import { akbankSimulatorSettings } from "./sim/settings";

// The AkbankPos connector (docs/banks-akbank.md): Akbank's own JSON API beside its NestPay gate.
// Settings under the seed key "akbank" with one secret, an order-history probe for
// `connections check`, and the protocol simulator the sandbox serves under /sim-akbank/.
// Payouts are not an acquiring call: an operator transfers and marks them.

const demoConnectionId = "vpos-akbank";

const configOf = (c: ConnectionBank) => parseAkbankConfig(c.id, c.bankConfig);

export const akbankBankModule: BankModule = {
  id: "akbank",
  name: "AkbankPos",
  settings: bankSettings(akbankConfigSchema, toAkbankConfig),
  redact: (c) => redactAkbankConfig(configOf(c)),
  columns: (c) => {
    const config = configOf(c);
    return { model: config.model, api: config.apiUrl };
  },
  async check(c, env) {
    const config = configOf(c);
    const orderId = `CHK${randomBytes(8).toString("hex").toUpperCase()}`;
    // The request carries the wall time it was made (the CLI has no service clock).
    const result = await checkAkbankConnection(config, { fetch: env.fetch }, orderId, env.nowMs, systemClock.nowMs());
    return { ...result, target: processUrl(config), facts: { apiUrl: config.apiUrl, orderId } };
  },
  secret: false,
  createAdapter: (c, env) => createAkbankAdapter(configOf(c), { fetch: env.fetch, nowMs: env.nowMs ?? (() => systemClock.nowMs()) }),
  reconcile: (c, env, gateway) =>
    createAkbankReconciler(gateway, configOf(c), { fetch: env.fetch, nowMs: env.nowMs ?? (() => systemClock.nowMs()) }),
  simulator: { serve: "sandbox", routes: akbankSimulatorRoutes },
  demo: {
    connections: ({ baseUrl, psp }: DemoContext) => [
      {
        id: demoConnectionId,
        psp,
        bank: "akbank",
        active: true,
        acceptsForeignCards: true,
        acceptsDebit: true,
        limits: null,
        akbank: akbankSimulatorSettings(baseUrl, "3d", 10_000),
      },
    ],
    terminals: ({ partner }: DemoContext) => [
      {
        id: "T-6001",
        partner,
        connection: demoConnectionId,
        active: true,
        commissionBasis: "gross" as const,
        installments: [1, 2, 3, 6],
        infrastructure: "standard" as const,
        directCollection: false,
        valueDays: 1,
        bank: "Demo Akbank",
        rates: [
          { count: 1, rateBps: 199 },
          { count: 2, rateBps: 350 },
          { count: 3, rateBps: 450 },
          { count: 6, rateBps: 690 },
        ],
      },
    ],
    bannerTerminals: ({ baseUrl }) => [
      `T-6001 (AkbankPos JSON API, model 3d, against the built-in AkbankPos simulator at ${baseUrl}/sim-akbank/)`,
    ],
    bannerNotes: () => [
      `AkbankPos simulator faults (T-6001, by the amount's kuruş): ${Object.entries(AKBANK_SIM_FAULTS)
        .filter(([k]) => k !== ".96")
        .map(([k, d]) => `${k} ${d}`)
        .join("; ")}`,
    ],
  },
  payouts: "operator",
  // The gate answers straight to the callback: the buyer types nothing.
  buyer: null,
  // The callback form is UTF-8, the pages' own charset.
  formCharsets: {},
};
