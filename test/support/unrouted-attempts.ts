import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import type { Store } from "../../src/store/store";
import { TEST_SEED } from "./fixtures";
import { T0 } from "./harness";

/**
 * A payment with two attempts written as before attempts recorded their route (terminal and
 * connection null): what the SQLite and PostgreSQL migration tests bring up to date.
 */
export async function seedUnroutedAttempts(old: Store): Promise<void> {
  await applySeed(old, parseSeed(TEST_SEED), T0, () => `key_${Math.random()}`);
  await old.write(async (tx) => {
    await tx.payments.insert({
      code: "pay_old",
      partnerId: "ptn_test",
      terminalId: "T-NET",
      connectionId: "vpos-1",
      partnerTxCode: "old-1",
      channel: "api",
      linkId: null,
      amount: 10_000,
      principal: 10_000,
      currency: "TRY",
      installment: 1,
      description: null,
      returnUrl: null,
      paymentRef: "ref_old",
      expiresAtMs: T0 + 1_800_000,
      createdAtMs: T0,
    });
    const attempt = { paymentCode: "pay_old", counted: true, createdAtMs: T0, terminalId: null, connectionId: null };
    await tx.attempts.insert({ ...attempt, id: "att_1", status: "declined" });
    await tx.attempts.insert({ ...attempt, id: "att_2", status: "acs" });
  });
}
