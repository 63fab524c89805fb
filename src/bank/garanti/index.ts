import { randomBytes } from "node:crypto";
import { createGarantiReconciler } from "./reconcile";
import type { BankModule, ConnectionBank, DemoContext } from "../module";
import { bankSettings } from "../module";
import { checkGarantiConnection, createGarantiAdapter } from "./adapter";
import { garantiConfigSchema, parseGarantiConfig, redactGarantiConfig, toGarantiConfig } from "./config";
import { GARANTI_SIM_FAULTS } from "./sim/faults";
import { garantiSimulatorRoutes } from "./sim/routes";
import { garantiSimulatorSettings } from "./sim/settings";

// The Garanti BBVA GVP connector (docs/banks-garanti.md): settings under the seed key "garanti"
// with three secrets, an `orderinq` probe for `connections check`, and the protocol simulator
// served by the sandbox under /sim-garanti/. Payouts are not an acquiring call: an operator
// transfers and marks them.

const demoConnectionId = "vpos-garanti";

const configOf = (c: ConnectionBank) => parseGarantiConfig(c.id, c.bankConfig);

export const garantiBankModule: BankModule = {
  id: "garanti",
  name: "Garanti BBVA GVP",
  settings: bankSettings(garantiConfigSchema, toGarantiConfig),
  redact: (c) => redactGarantiConfig(configOf(c)),
  columns: (c) => {
    const config = configOf(c);
    return { model: config.model, api: config.apiUrl };
  },
  async check(c, env) {
    const config = configOf(c);
    const orderId = `CHK${randomBytes(8).toString("hex").toUpperCase()}`;
    const result = await checkGarantiConnection(config, { fetch: env.fetch }, orderId, env.nowMs);
    return { ...result, target: config.apiUrl, facts: { apiUrl: config.apiUrl, orderId } };
  },
  secret: false,
  createAdapter: (c, env) => createGarantiAdapter(configOf(c), { fetch: env.fetch }),
  reconcile: (_c, _env, gateway) => createGarantiReconciler(gateway),
  simulator: { serve: "sandbox", routes: garantiSimulatorRoutes },
  demo: {
    // The sandbox's test cards, through the GVP protocol and the simulator the sandbox serves.
    connections: ({ baseUrl, psp }: DemoContext) => [
      {
        id: demoConnectionId,
        psp,
        bank: "garanti",
        active: true,
        acceptsForeignCards: true,
        acceptsDebit: true,
        limits: null,
        garanti: garantiSimulatorSettings(baseUrl, "3d", 10_000),
      },
    ],
    terminals: ({ partner }: DemoContext) => [
      {
        id: "T-4001",
        partner,
        connection: demoConnectionId,
        active: true,
        commissionBasis: "gross" as const,
        installments: [1, 2, 3, 6],
        infrastructure: "standard" as const,
        directCollection: false,
        valueDays: 1,
        bank: "Demo Garanti BBVA",
        rates: [
          { count: 1, rateBps: 189 },
          { count: 2, rateBps: 340 },
          { count: 3, rateBps: 440 },
          { count: 6, rateBps: 680 },
        ],
      },
    ],
    bannerTerminals: ({ baseUrl }) => [
      `T-4001 (Garanti BBVA GVP protocol, model 3d, against the built-in Garanti simulator at ${baseUrl}/sim-garanti/)`,
    ],
    bannerNotes: () => [
      `Garanti simulator faults (T-4001, by the amount's kuruş): ${Object.entries(GARANTI_SIM_FAULTS)
        .filter(([k]) => k !== ".96")
        .map(([k, d]) => `${k} ${d}`)
        .join("; ")}`,
    ],
  },
  payouts: "operator",
  // The gate answers straight to the callback: the buyer types nothing.
  buyer: null,
  formCharsets: {},
};
