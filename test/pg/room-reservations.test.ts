import postgres from "postgres";
import { afterEach, describe, expect, inject, it } from "vitest";
import { exceededConnectionLimit, insertedWithinReservation } from "../../src/domain/payments/connection-limits";
import { connectionReservations, expireReservations, holdExactCheckLock, reservationKeys } from "../../src/store/postgres/inspect";
import { openPostgresStore, type PgStore } from "../../src/store/postgres/pg-store";
import type { ConnectionRow } from "../../src/store/rows";
import { inLane } from "../../src/store/store";
import { connectionRow, partnerRow, terminalRow } from "../support/catalog-rows";
import { freshDatabase } from "../support/pg-cluster";

// Issue 37 (docs/postgresql.md, "Connection limits across instances"): each instance reserves a
// share of a connection's room under the connection lock and admits creates within it without
// the lock; the exact check counts every other instance's unused share, and near a limit takes
// it back. Several stores on one database are several instances here (each has its own holder).

const AMOUNT = 100;
const LIMIT_CREATES = 10;
const NOW = Date.UTC(2026, 10, 27, 9, 0, 0);

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function database(limits: Partial<ConnectionRow> = { dailyMax: LIMIT_CREATES * AMOUNT }) {
  const db = await freshDatabase(inject("pgUrl"));
  closers.push(() => db.drop());
  const sql = postgres(db.url, { max: 2, onnotice: () => {} });
  closers.push(() => sql.end());
  const first = await instance(db.url);
  await first.write(async (tx) => {
    await tx.partners.upsert(partnerRow("p1", 1));
    await tx.catalog.upsertPsp({ id: "psp-1", active: true });
    for (const n of [1, 2]) {
      await tx.catalog.upsertConnection(connectionRow(`c${n}`, limits));
      await tx.catalog.upsertTerminal(terminalRow({ id: `t${n}`, partnerId: "p1", connectionId: `c${n}` }));
    }
  });
  return { url: db.url, sql, first };
}

/** A promise and the function that resolves it. */
function gate(): [Promise<void>, () => void] {
  let open = (): void => {};
  const closed = new Promise<void>((r) => {
    open = r;
  });
  return [closed, open];
}

const closed = new Set<PgStore>();

/** One instance; closing it gives nothing back (the reservation rows stay, as after a crash). */
async function instance(url: string): Promise<PgStore> {
  const s = await openPostgresStore(url);
  closers.push(async () => {
    if (!closed.has(s)) await s.close();
  });
  return s;
}

async function stop(s: PgStore): Promise<void> {
  closed.add(s);
  await s.close();
}

let codes = 0;
const terminalOf = (connectionId: string) => connectionId.replace("c", "t");
/** The payment a test's create inserts. */
const paymentOf = (code: string, on: string, atMs: number, partnerTxCode = `tx-${code}`) => ({
  code,
  partnerId: "p1",
  terminalId: terminalOf(on),
  connectionId: on,
  partnerTxCode,
  channel: "api" as const,
  linkId: null,
  amount: AMOUNT,
  principal: AMOUNT,
  currency: "TRY",
  installment: 1,
  description: null,
  returnUrl: null,
  paymentRef: `ref-${code}`,
  expiresAtMs: atMs + 1_800_000,
  createdAtMs: atMs,
});

/**
 * A create as create.ts runs it, in one unit of the terminal's lane: the insert with the first
 * reads, within the reservation; else the limit check, then the insert.
 */
function create(s: PgStore, { fail = false, atMs = NOW, exceptCode = null as string | null, on = "c1" } = {}) {
  const code = `pay_${++codes}`;
  return s.write(
    inLane(`terminal:${terminalOf(on)}`, async (tx) => {
      const connection = (await tx.catalog.connection(on)) as ConnectionRow;
      const row = paymentOf(code, on, atMs);
      if (exceptCode !== null || !(await insertedWithinReservation(tx, connection, row))) {
        const refused = await exceededConnectionLimit(tx, connection, AMOUNT, atMs, exceptCode);
        if (refused !== null) return refused;
        if (exceptCode !== null) return "admitted";
        await tx.payments.insert(row);
      }
      if (fail) throw new Error("the create fails after its insert");
      return code;
    }),
  );
}

const admitted = (answers: readonly string[]) => answers.filter((a) => a.startsWith("pay_")).length;

describe("issue 37: per-instance reservations of a connection's room (docs/postgresql.md)", () => {
  it("a create within the instance's reservation does not wait for the connection lock another transaction holds", async () => {
    const { sql, first } = await database();
    expect(await create(first)).toMatch(/^pay_/); // the exact check, which reserves half the room left
    // The exact check's lock, held as another instance's batch holds it.
    const [until, release] = gate();
    const [holding, held] = gate();
    const locking = holdExactCheckLock(sql, "c1", held, until);
    await holding;
    const answer = await Promise.race([create(first), new Promise((r) => setTimeout(() => r("waited"), 1_500))]);
    release();
    await locking;
    expect(answer).toMatch(/^pay_/);
  });

  it("three instances racing 40 creates on a connection admitting 10 admit exactly 10, and the totals equal the scan", async () => {
    const { url, first } = await database();
    const all = [first, await instance(url), await instance(url)];
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => create(all[i % 3] as PgStore)));
    expect(admitted(answers)).toBe(LIMIT_CREATES);
    expect(answers.filter((a) => !a.startsWith("pay_")).every((a) => a === "pos_daily_limit_exceeded")).toBe(true);
    const w = { dayFromMs: NOW - 3_600_000, weekFromMs: NOW - 3_600_000, monthFromMs: NOW - 3_600_000, windowAfterMs: NOW };
    expect(await first.q.payments.connectionUsage("c1", w, null)).toEqual(await first.q.payments.connectionUsageByScan("c1", w, null));
    expect((await first.q.payments.connectionUsage("c1", w, null)).day).toBe(BigInt(LIMIT_CREATES * AMOUNT));
  });

  it("the room an instance reserved and never used is taken back near the limit, also after that instance stopped", async () => {
    const { url, sql, first } = await database();
    await create(first);
    expect((await connectionReservations(sql, "c1"))[0]?.amount).toBe(((LIMIT_CREATES - 1) * AMOUNT) / 2);
    await stop(first);
    const other = await instance(url);
    const answers: string[] = [];
    for (let i = 0; i < LIMIT_CREATES; i++) answers.push(await create(other));
    expect(admitted(answers)).toBe(LIMIT_CREATES - 1);
    expect(answers.at(-1)).toBe("pos_daily_limit_exceeded");
  });

  it("an exact check deletes every expired reservation no transaction holds, on any connection", async () => {
    const { url, sql, first } = await database();
    await create(first, { on: "c2" });
    await stop(first);
    await expireReservations(sql);
    await create(await instance(url));
    expect(await reservationKeys(sql)).toEqual([expect.stringMatching(/^c1\//)]);
  });

  it("a create that fails after its admission gives its share of the reservation back", async () => {
    const { sql, first } = await database();
    await create(first);
    const [before] = await connectionReservations(sql, "c1");
    await expect(create(first, { fail: true })).rejects.toThrow("the create fails after its insert");
    expect(await connectionReservations(sql, "c1")).toEqual([before]);
    expect(await create(first)).toMatch(/^pay_/);
    expect((await connectionReservations(sql, "c1"))[0]?.used).toBe(AMOUNT);
  });

  it("the insert sent with a create's first reads takes no room while the partner's code is held (a replay costs nothing), and none without a reservation", async () => {
    const { sql, first } = await database();
    const withReads = (code: string, partnerTxCode: string) =>
      first.write(
        inLane("terminal:t1", async (tx) =>
          insertedWithinReservation(tx, (await tx.catalog.connection("c1")) as ConnectionRow, paymentOf(code, "c1", NOW, partnerTxCode)),
        ),
      );
    expect(await withReads("pay_first", "tx-first")).toBeNull(); // no reservation yet: the exact way
    const code = await create(first);
    const usedNow = async () => (await connectionReservations(sql, "c1"))[0]?.used;
    expect(await withReads("pay_again", `tx-${code}`)).toBeNull();
    expect(await usedNow()).toBe(0);
    expect(await first.q.payments.get("pay_again")).toBeUndefined();
    expect(await withReads("pay_new", "tx-new")).toMatchObject({ code: "pay_new", status: "initiated", amount: AMOUNT });
    expect(await usedNow()).toBe(AMOUNT);
    expect(await first.q.payments.get("pay_new")).toMatchObject({ partnerTxCode: "tx-new", status: "initiated" });
  });

  it("on a connection without period or window limits the insert with the first reads needs no reservation, and inserts nothing while the code is held", async () => {
    const { first } = await database({ dailyMax: null });
    const withReads = (code: string, partnerTxCode: string) =>
      first.write(
        inLane("terminal:t1", async (tx) =>
          insertedWithinReservation(tx, (await tx.catalog.connection("c1")) as ConnectionRow, paymentOf(code, "c1", NOW, partnerTxCode)),
        ),
      );
    expect(await withReads("pay_a", "tx-a")).toMatchObject({ code: "pay_a" });
    expect(await withReads("pay_b", "tx-a")).toBeNull();
    expect(await first.q.payments.get("pay_b")).toBeUndefined();
  });

  it("a reservation granted under other limits is not counted against this instance's own 3D-start check", async () => {
    const { sql, first } = await database({ dailyMax: 1_000 });
    const code = await create(first);
    expect((await connectionReservations(sql, "c1"))[0]?.amount).toBe(450);
    // The operator lowers the limit to two payments' worth: the payment alone still fits.
    await first.write((tx) => tx.catalog.upsertConnection(connectionRow("c1", { dailyMax: 2 * AMOUNT })));
    expect(await create(first, { exceptCode: code })).toBe("admitted");
    expect(await create(first)).toMatch(/^pay_/);
    expect(await create(first)).toBe("pos_daily_limit_exceeded");
  });

  it("a reservation holds for the Istanbul day it was granted in: the next day's first create is the exact check", async () => {
    const { sql, first } = await database();
    await create(first);
    const nextDay = NOW + 86_400_000;
    expect(await create(first, { atMs: nextDay })).toMatch(/^pay_/);
    // Granted anew for the new day: the old day's one payment is not in the new day's room.
    expect((await connectionReservations(sql, "c1"))[0]).toEqual(
      expect.objectContaining({ amount: ((LIMIT_CREATES - 1) * AMOUNT) / 2, used: 0 }),
    );
  });
});
