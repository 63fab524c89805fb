import { invariant } from "../../invariant";
import type { BankGateway } from "../gateway";
import type { BankModule, DemoContext } from "../module";
import { DEMO_BINS, TEST_CARDS } from "../test-cards";
import { createSimReconciler } from "./reconcile";
import { createSimBank, SIM_BANK_PATHS, type SimBank } from "./sim-bank";

// The simulated bank (docs/banks.md): built in, the default bank of a connection, no settings. Its
// protocol simulator is its ACS, served in every mode because its connections may exist in serve
// too; it pays its own payout batches at day end.

const isSimBank = (gateway: BankGateway): gateway is SimBank => typeof (gateway as Partial<SimBank>).renderAcsPage === "function";

const demoConnectionId = "vpos-1";
/** A second simulated bank, "Demo Bank B" (program `world`), the demo router's other member. */
const demoBankBConnectionId = "vpos-2";

export const simBankModule: BankModule = {
  id: "sim",
  name: "Simulated bank",
  settings: null,
  redact: () => null,
  columns: () => ({ model: "-", api: "-" }),
  check: async () => ({
    answered: true,
    credentialsAccepted: true,
    latencyMs: 0,
    message: "built in",
    target: null,
    facts: {},
    note: "the simulated bank is built in; nothing to check",
  }),
  // One secret per database, made on first start, so ACS tokens and bank references survive restarts.
  secret: true,
  createAdapter(_connection, env) {
    invariant(env.secret !== null, "the simulated bank is given its database secret");
    return createSimBank({ secret: env.secret, baseUrl: env.baseUrl });
  },
  reconcile(_connection, env) {
    invariant(env.secret !== null, "the simulated bank is given its database secret");
    return createSimReconciler(env.secret);
  },
  simulator: {
    serve: "always",
    routes: (env) => [
      {
        method: "POST",
        path: SIM_BANK_PATHS.acs,
        buyerFacing: true,
        readsForm: true,
        handle({ form, traceId }) {
          const bank = env.gateway();
          invariant(isSimBank(bank) && form !== null, "the simulated bank's ACS renders its own page");
          return bank.renderAcsPage(form, { nonce: env.nonce(), nowMs: env.nowMs(), traceId });
        },
      },
    ],
  },
  demo: {
    connections: ({ psp }: DemoContext) => [
      { id: demoConnectionId, psp, bank: "sim", active: true, acceptsForeignCards: true, acceptsDebit: true, limits: null },
      { id: demoBankBConnectionId, psp, bank: "sim", active: true, acceptsForeignCards: false, acceptsDebit: true, limits: null },
    ],
    terminals: ({ partner }: DemoContext) => [
      {
        id: "T-1001",
        partner,
        connection: demoConnectionId,
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
        partner,
        connection: demoConnectionId,
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
        id: "T-9101",
        partner,
        connection: demoBankBConnectionId,
        active: true,
        commissionBasis: "gross",
        installments: [1, 2, 3, 6],
        infrastructure: "standard",
        directCollection: false,
        valueDays: 1,
        bank: "Demo Bank B",
        rates: [
          { count: 1, rateBps: 189 },
          { count: 2, rateBps: 340 },
          { count: 3, rateBps: 430 },
          { count: 6, rateBps: 650 },
          { count: 1, onUs: true, rateBps: 139 },
        ],
      },
    ],
    bannerTerminals: () => [
      "T-1001 (gross, 1-12 installments), T-2001 (net, extended 3D window)",
      "T-9101 (Demo Bank B on connection vpos-2, program world: on-us installments 1-6)",
    ],
    bannerNotes: () => [
      "Test cards (any future expiry, any 3-digit CVV; 3D code 123456):",
      ...TEST_CARDS.map((c) => `  ${c.pan}  ${c.outcome}`),
      `Demo Bank B (program world) cards: ${DEMO_BINS.filter((b) => b.bank === "Demo Bank B" && b.brand === "world")
        .map((b) => TEST_CARDS.find((c) => c.pan.startsWith(b.bin))?.pan)
        .filter((pan) => pan !== undefined)
        .join(", ")}`,
    ],
  },
  payouts: "bank",
  // The ACS asks for the one-time code and posts it, with the pressed button, to the callback.
  buyer: {
    isGateForm: (form) => form.fieldNames.includes("otp") || form.action.includes("/sim-bank/"),
    answer: (otp) => ({ values: { otp }, button: "confirm" }),
  },
  formCharsets: {},
};
