import { randomBytes } from "node:crypto";
import { createPosnetReconciler } from "./reconcile";
import type { BankModule, ConnectionBank, DemoContext } from "../module";
import { bankSettings } from "../module";
import { checkPosnetConnection, createPosnetAdapter } from "./adapter";
import { parsePosnetConfig, posnetConfigSchema, redactPosnetConfig, toPosnetConfig } from "./config";
import { orderIdOf } from "./ids";
import { POSNET_SIM_FAULTS } from "./sim/faults";
import { posnetSimulatorRoutes } from "./sim/routes";
import { posnetSimulatorSettings } from "./sim/settings";

// The YapıKredi Posnet connector (docs/banks-posnet.md): settings under the seed key "posnet" with
// one secret (encKey), an agreement probe for `connections check`, and the protocol simulator
// served by the sandbox under /sim-posnet/. The model is always 3D. Payouts are not an acquiring
// call: an operator transfers and marks them.

const demoConnectionId = "vpos-posnet";

const configOf = (c: ConnectionBank) => parsePosnetConfig(c.id, c.bankConfig);

export const posnetBankModule: BankModule = {
  id: "posnet",
  name: "YapıKredi Posnet",
  settings: bankSettings(posnetConfigSchema, toPosnetConfig),
  redact: (c) => redactPosnetConfig(configOf(c)),
  columns: (c) => ({ model: "3d", api: configOf(c).apiUrl }),
  async check(c, env) {
    const config = configOf(c);
    const orderId = orderIdOf(`CHK${randomBytes(8).toString("hex").toUpperCase()}`);
    const result = await checkPosnetConnection(config, { fetch: env.fetch }, orderId, env.nowMs);
    return { ...result, target: config.apiUrl, facts: { apiUrl: config.apiUrl, orderId } };
  },
  secret: false,
  createAdapter: (c, env) => createPosnetAdapter(configOf(c), { fetch: env.fetch }),
  reconcile: (_c, _env, gateway) => createPosnetReconciler(gateway),
  simulator: { serve: "sandbox", routes: posnetSimulatorRoutes },
  demo: {
    // The same test cards, through the Posnet protocol and the simulator the sandbox serves.
    connections: ({ baseUrl, psp }: DemoContext) => [
      {
        id: demoConnectionId,
        psp,
        bank: "posnet",
        active: true,
        acceptsForeignCards: true,
        acceptsDebit: true,
        limits: null,
        posnet: posnetSimulatorSettings(baseUrl, 10_000),
      },
    ],
    terminals: ({ partner }: DemoContext) => [
      {
        id: "T-5001",
        partner,
        connection: demoConnectionId,
        active: true,
        commissionBasis: "gross" as const,
        installments: [1, 2, 3, 6],
        infrastructure: "standard" as const,
        directCollection: false,
        valueDays: 1,
        bank: "Demo YapıKredi",
        rates: [
          { count: 1, rateBps: 199 },
          { count: 2, rateBps: 350 },
          { count: 3, rateBps: 450 },
          { count: 6, rateBps: 690 },
        ],
      },
    ],
    bannerTerminals: ({ baseUrl }) => [
      `T-5001 (YapıKredi Posnet protocol, model 3d, against the built-in Posnet simulator at ${baseUrl}/sim-posnet/)`,
    ],
    bannerNotes: () => [
      `Posnet simulator faults (T-5001, by the amount's kuruş, on oosTranData, reverse, return): ${Object.entries(POSNET_SIM_FAULTS)
        .map(([k, d]) => `${k} ${d}`)
        .join("; ")}`,
    ],
  },
  payouts: "operator",
  // The 3D page asks the buyer nothing: it posts straight back to the callback.
  buyer: null,
  formCharsets: {},
};
