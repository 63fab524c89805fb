import postgres from "postgres";
import { afterEach, describe, expect, inject, it } from "vitest";
import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import { dropAttemptRoutes } from "../../src/store/postgres/inspect";
import { openPostgresStore, type PgStore } from "../../src/store/postgres/pg-store";
import { TEST_SEED } from "../support/fixtures";
import { freshDatabase } from "../support/pg-cluster";

// Issue 29: a PostgreSQL database made before attempts recorded their terminal and connection
// gains the two columns when kasa next starts on it, filled from each attempt's payment.

const T0 = Date.parse("2026-11-20T09:00:00.000Z");
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function open(url: string): Promise<PgStore> {
  const store = await openPostgresStore(url, { masterKey: null });
  cleanups.push(() => store.close());
  return store;
}

describe("issue 29 schema on PostgreSQL: older attempts are filled from their payment", () => {
  it("a database without the route columns gets them at the next start, routed to each payment's terminal and connection", async () => {
    const db = await freshDatabase(inject("pgUrl"));
    cleanups.push(db.drop);
    const old = await open(db.url);
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
    await old.close();
    cleanups.pop();
    const sql = postgres(db.url, { max: 1, onnotice: () => {} });
    await dropAttemptRoutes(sql);
    await sql.end();
    const store = await open(db.url);
    const routes = (await store.q.attempts.byPayment("pay_old")).map((a) => [a.id, a.status, a.terminalId, a.connectionId]);
    expect(routes).toEqual([
      ["att_1", "declined", "T-NET", "vpos-1"],
      ["att_2", "acs", "T-NET", "vpos-1"],
    ]);
  });
});
