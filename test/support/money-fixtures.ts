import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { TEST_SEED } from "./fixtures";

// Seeds of the refund and settlement tests (product 9): TEST_SEED plus a direct-collection terminal,
// terminals with other value days, and a third partner without a payout account.

type TerminalSeed = NonNullable<SeedFile["terminals"]>[number];

const single = (id: string, partner: string, more: Partial<TerminalSeed> = {}): TerminalSeed => ({
  id,
  partner,
  connection: "vpos-1",
  installments: [1],
  rates: [{ count: 1, rateBps: 199 }],
  ...more,
});

export const NO_ACCOUNT_KEY = "kasa_sk_noacct_dddddddddddddddddddddddddddd";

export const MONEY_SEED: SeedFile = {
  ...TEST_SEED,
  partners: [
    ...TEST_SEED.partners!,
    {
      id: "ptn_noacct",
      name: "No Account Shop",
      status: "active",
      apiKeys: [NO_ACCOUNT_KEY],
      webhook: { url: "http://127.0.0.1:9/hooks", secret: "whsec_noacct" },
    },
  ],
  terminals: [
    ...TEST_SEED.terminals!,
    single("T-DIRECT", "ptn_test", { directCollection: true }),
    single("T-VD0", "ptn_test", { valueDays: 0 }),
    single("T-VD2", "ptn_test", { valueDays: 2 }),
    single("T-NOACCT", "ptn_noacct"),
  ],
};
