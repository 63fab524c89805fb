import { EST_SIM_ACCOUNT } from "../../bank/est-sim/accounts";
import type { SeedFile } from "./seed-schema";

// product 13: what `kasa sandbox` loads into a new database. Fixed key and secret so the
// README's curl tour works as printed.

export const DEMO_API_KEY = "kasa_sk_demo_0000000000000000000000000000000000";
export const DEMO_WEBHOOK_SECRET = "whsec_demo";
export const DEMO_PARTNER_ID = "ptn_demo";

/** Product 17: the sandbox's EST connection, pointing at the simulator the sandbox itself serves. */
export const DEMO_EST_CONNECTION_ID = "vpos-est";

/** An `est` seed object for the EST simulator that kasa serves at `baseUrl` (sandbox, tests). */
export const estSimulatorSettings = (baseUrl: string, model: "3d" | "3d_pay", timeoutMs: number) => ({
  model,
  gateUrl: `${baseUrl}/sim-est/fim/est3Dgate`,
  apiUrl: `${baseUrl}/sim-est/fim/api`,
  clientId: EST_SIM_ACCOUNT.clientId,
  apiUser: EST_SIM_ACCOUNT.apiUser,
  apiPassword: EST_SIM_ACCOUNT.apiPassword,
  storeKey: EST_SIM_ACCOUNT.storeKey,
  lang: "tr" as const,
  timeoutMs,
});

export function demoEstConnection(baseUrl: string): NonNullable<SeedFile["connections"]>[number] {
  return {
    id: DEMO_EST_CONNECTION_ID,
    psp: "psp-1",
    bank: "est",
    active: true,
    acceptsForeignCards: true,
    acceptsDebit: true,
    limits: null,
    est: estSimulatorSettings(baseUrl, "3d", 10_000),
  };
}

/** `baseUrl`: the sandbox's own, where its EST simulator answers (product 17). */
export function demoSeed(bins: NonNullable<SeedFile["bins"]>, baseUrl: string): SeedFile {
  return {
    psps: [{ id: "psp-1", active: true }],
    connections: [
      { id: "vpos-1", psp: "psp-1", bank: "sim", active: true, acceptsForeignCards: true, acceptsDebit: true, limits: null },
      demoEstConnection(baseUrl),
    ],
    partners: [
      {
        id: DEMO_PARTNER_ID,
        name: "Demo Shop",
        status: "active",
        apiKeys: [DEMO_API_KEY],
        webhook: { url: "http://127.0.0.1:9000/hooks", secret: DEMO_WEBHOOK_SECRET },
        allowedRedirectHosts: null,
        amountLimits: null,
        cardAttemptLimit: 3,
        installmentCap: 12,
        rateLimitMultiplier: 1,
        payoutAccount: "TR000000000000000000000000",
      },
    ],
    terminals: [
      {
        id: "T-1001",
        partner: DEMO_PARTNER_ID,
        connection: "vpos-1",
        active: true,
        commissionBasis: "gross",
        installments: [1, 2, 3, 6, 9, 12],
        infrastructure: "standard",
        directCollection: false,
        valueDays: 1,
        bank: "Demo Bank A",
        rates: [
          { count: 1, rateBps: 199 },
          { count: 2, rateBps: 350 },
          { count: 3, rateBps: 450, fixedFee: 100 },
          { count: 3, brand: "bonus", rateBps: 420 },
          { count: 6, rateBps: 690 },
          { count: 9, rateBps: 920 },
          { count: 12, rateBps: 1150 },
          { count: 1, onUs: true, rateBps: 149 },
        ],
      },
      {
        id: "T-2001",
        partner: DEMO_PARTNER_ID,
        connection: "vpos-1",
        active: true,
        commissionBasis: "net",
        installments: [1, 3, 6],
        infrastructure: "extended",
        directCollection: false,
        valueDays: { default: 1, "6": 2 },
        bank: "Demo Bank B",
        rates: [
          { count: 1, rateBps: 220 },
          { count: 3, rateBps: 480 },
          { count: 6, rateBps: 720, fixedFee: 50 },
        ],
      },
      {
        // Product 17: the same test cards, through the EST / NestPay protocol and its simulator.
        id: "T-3001",
        partner: DEMO_PARTNER_ID,
        connection: DEMO_EST_CONNECTION_ID,
        active: true,
        commissionBasis: "gross",
        installments: [1, 2, 3, 6],
        infrastructure: "standard",
        directCollection: false,
        valueDays: 1,
        bank: "Demo EST Bank",
        rates: [
          { count: 1, rateBps: 199 },
          { count: 2, rateBps: 350 },
          { count: 3, rateBps: 450 },
          { count: 6, rateBps: 690 },
        ],
      },
    ],
    bins,
  };
}
