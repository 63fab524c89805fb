import type { SeedFile } from "../../src/domain/partners/seed-schema";

export const TEST_KEY = "kasa_sk_test_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
export const TEST_KEY_2 = "kasa_sk_test_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
export const OTHER_KEY = "kasa_sk_other_cccccccccccccccccccccccccccccc";

/** Two partners (so scoping can be tested), a gross and a net terminal, the demo BINs. */
export const TEST_SEED: SeedFile = {
  psps: [{ id: "psp-1", active: true }],
  connections: [{ id: "vpos-1", psp: "psp-1", bank: "sim", active: true, acceptsForeignCards: false }],
  partners: [
    {
      id: "ptn_test",
      name: "Test Shop",
      status: "active",
      apiKeys: [TEST_KEY, TEST_KEY_2],
      webhook: { url: "http://127.0.0.1:9/hooks", secret: "whsec_test_secret" },
      allowedRedirectHosts: ["shop.example"],
      cardAttemptLimit: 3,
      installmentCap: 12,
      payoutAccount: "TR000000000000000000000001",
    },
    { id: "ptn_other", name: "Other Shop", status: "active", apiKeys: [OTHER_KEY] },
  ],
  terminals: [
    {
      id: "T-1",
      partner: "ptn_test",
      connection: "vpos-1",
      commissionBasis: "gross",
      installments: [1, 2, 3, 6, 9, 12],
      bank: "Demo Bank A",
      rates: [
        { count: 1, rateBps: 199 },
        { count: 2, rateBps: 350 },
        { count: 3, rateBps: 450, fixedFee: 100 },
        { count: 3, brand: "bonus", rateBps: 420 },
        { count: 6, rateBps: 690 },
        { count: 9, rateBps: 920 },
        { count: 12, rateBps: 1150 },
      ],
    },
    {
      id: "T-NET",
      partner: "ptn_test",
      connection: "vpos-1",
      commissionBasis: "net",
      installments: [1, 3, 6],
      bank: "Demo Bank B",
      rates: [
        { count: 1, rateBps: 220 },
        { count: 3, rateBps: 480 },
        { count: 6, rateBps: 720, fixedFee: 50 },
      ],
    },
    { id: "T-OFF", partner: "ptn_test", connection: "vpos-1", active: false, installments: [1], rates: [{ count: 1, rateBps: 199 }] },
    {
      id: "T-OTHER",
      partner: "ptn_other",
      connection: "vpos-1",
      installments: [1, 3],
      rates: [
        { count: 1, rateBps: 199 },
        { count: 3, rateBps: 450 },
      ],
    },
  ],
  bins: [
    { bin: "40000011", brand: "bonus", family: "credit", bank: "Demo Bank A", installments: true },
    { bin: "40000022", brand: "world", family: "credit", bank: "Demo Bank B", installments: true },
    { bin: "54000066", brand: "maximum", family: "credit", bank: "Demo Bank C", installments: true },
    { bin: "40000033", family: "debit", bank: "Demo Bank A", installments: false },
    { bin: "40000044", family: "prepaid", bank: "Demo Bank B", installments: false },
    { bin: "40000055", family: "foreign", installments: false },
    { bin: "40000012", brand: "bonus", family: "credit", bank: "Demo Bank A", installments: false },
  ],
};
