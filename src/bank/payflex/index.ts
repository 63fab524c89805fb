import { randomBytes } from "node:crypto";
import { createPayflexReconciler } from "./reconcile";
import type { BankModule, ConnectionBank, DemoContext } from "../module";
import { bankSettings } from "../module";
import { checkPayflexConnection, createPayflexAdapter } from "./adapter";
import { parsePayflexConfig, payflexConfigSchema, redactPayflexConfig, toPayflexConfig } from "./config";
import { PAYFLEX_ATTEMPT_CARD } from "./sim/acs";
import { PAYFLEX_SIM_FAULTS } from "./sim/faults";
import { payflexSimulatorRoutes } from "./sim/routes";
import { payflexSimulatorSettings } from "./sim/settings";

// The VakıfBank PayFlex connector (MPI enrollment, issuer ACS, unsigned callback, VPOS provision;
// docs/banks-payflex.md): settings under the seed key "payflex" with one secret, a Search probe for
// `connections check`, and the protocol simulator served by the sandbox under /sim-payflex/.
// Payouts are not an acquiring call: an operator transfers and marks them.

const demoConnectionId = "vpos-payflex";

const configOf = (c: ConnectionBank) => parsePayflexConfig(c.id, c.bankConfig);

export const payflexBankModule: BankModule = {
  id: "payflex",
  name: "VakıfBank PayFlex",
  settings: bankSettings(payflexConfigSchema, toPayflexConfig),
  redact: (c) => redactPayflexConfig(configOf(c)),
  columns: (c) => ({ model: "3d", api: configOf(c).vposUrl }),
  async check(c, env) {
    const config = configOf(c);
    const id = `chk${randomBytes(8).toString("hex")}`;
    const result = await checkPayflexConnection(config, { fetch: env.fetch }, id, env.nowMs);
    return { ...result, target: config.searchUrl, facts: { searchUrl: config.searchUrl, transactionId: id } };
  },
  secret: false,
  createAdapter: (c, env) => {
    const config = configOf(c);
    // The issuer's ACS answers from its own origin; the relay's CSP is given the MPI's, where
    // kasa's simulator serves its ACS (docs/banks-payflex.md, "What kasa assumed").
    return createPayflexAdapter(config, { fetch: env.fetch }, new URL(config.mpiUrl).origin);
  },
  reconcile: (_c, _env, gateway) => createPayflexReconciler(gateway),
  simulator: { serve: "sandbox", routes: payflexSimulatorRoutes },
  demo: {
    connections: ({ baseUrl, psp }: DemoContext) => [
      {
        id: demoConnectionId,
        psp,
        bank: "payflex",
        active: true,
        acceptsForeignCards: true,
        acceptsDebit: true,
        limits: null,
        payflex: payflexSimulatorSettings(baseUrl, 10_000),
      },
    ],
    terminals: ({ partner }: DemoContext) => [
      {
        id: "T-7001",
        partner,
        connection: demoConnectionId,
        active: true,
        commissionBasis: "gross" as const,
        installments: [1, 2, 3, 6],
        infrastructure: "standard" as const,
        directCollection: false,
        valueDays: 1,
        bank: "Demo VakıfBank",
        rates: [
          { count: 1, rateBps: 199 },
          { count: 2, rateBps: 350 },
          { count: 3, rateBps: 450 },
          { count: 6, rateBps: 690 },
        ],
      },
    ],
    bannerTerminals: ({ baseUrl }) => [
      `T-7001 (VakıfBank PayFlex protocol, MPI + VPOS, against the built-in PayFlex simulator at ${baseUrl}/sim-payflex/)`,
    ],
    bannerNotes: () => [
      `PayFlex simulator (T-7001): ${PAYFLEX_ATTEMPT_CARD} gets a 3D "attempt" (Status A, refused); faults by the amount's kuruş: ${Object.entries(
        PAYFLEX_SIM_FAULTS,
      )
        .map(([k, d]) => `${k} ${d}`)
        .join("; ")}`,
    ],
  },
  payouts: "operator",
  // The simulated ACS asks for the one-time code.
  buyer: {
    isGateForm: (form) => form.action.includes("/sim-payflex/acs/") && form.fieldNames.includes("otp"),
    answer: (otp) => ({ values: { otp }, button: "confirm" }),
  },
  formCharsets: {},
};
