import postgres from "postgres";
import { seedUnroutedAttempts } from "../support/unrouted-attempts";
import { afterEach, describe, expect, inject, it } from "vitest";
import { dropAttemptRoutes } from "../../src/store/postgres/inspect";
import { openPostgresStore, type PgStore } from "../../src/store/postgres/pg-store";
import { freshDatabase } from "../support/pg-cluster";

// Issue 29: a PostgreSQL database made before attempts recorded their terminal and connection
// gains the two columns when kasa next starts on it, filled from each attempt's payment.

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
    await seedUnroutedAttempts(old);
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
