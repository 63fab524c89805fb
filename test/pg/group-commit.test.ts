import net from "node:net";
import postgres from "postgres";
import { afterEach, describe, expect, inject, it } from "vitest";
import { openPostgresStore, type PgStore } from "../../src/store/postgres/pg-store";
import { ANY_LANE, inLane, type Repos } from "../../src/store/store";
import { RUNNERS } from "../../src/store/postgres/group-commit-pg";
import { holdPaymentCount } from "../../src/store/postgres/inspect";
import { connectionRow, partnerRow } from "../support/catalog-rows";
import { freshDatabase } from "../support/pg-cluster";
import { partnersSqlite as seedPartners, paymentSqlite as seedPayment, terminalSqlite as seedTerminal } from "./links-world";
import { LINK, TERMINALS } from "./money-world";

// Issue 37 (docs/postgresql.md, Group commit): the units queued in one event-loop turn commit in
// one PostgreSQL transaction, each in its own savepoint, as on SQLite; a unit that throws rolls
// back alone, and one whose statement fails rolls its batch back, every unit of it then alone.

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function store(): Promise<PgStore> {
  const db = await freshDatabase(inject("pgUrl"));
  closers.push(() => db.drop());
  const s = await openPostgresStore(db.url);
  closers.push(() => s.close());
  return s;
}

/** Two instances (stores of their own) on one fresh database. */
async function twoInstances(): Promise<[PgStore, PgStore]> {
  const db = await freshDatabase(inject("pgUrl"));
  closers.push(() => db.drop());
  const pair: [PgStore, PgStore] = [await openPostgresStore(db.url), await openPostgresStore(db.url)];
  closers.push(
    () => pair[0].close(),
    () => pair[1].close(),
  );
  return pair;
}

/** A promise and the function that resolves it: a test holds a unit open until it says so. */
function gate(): [Promise<void>, () => void] {
  let open = (): void => {};
  const closed = new Promise<void>((r) => {
    open = r;
  });
  return [closed, open];
}

/** Reads the connection until it comes from memory (the same frozen row twice: the LISTEN is confirmed). */
async function cachedConnection(s: PgStore, id: string) {
  const until = Date.now() + 2_000;
  for (;;) {
    const [one, two] = [await s.q.catalog.connection(id), await s.q.catalog.connection(id)];
    if (one === two || Date.now() > until) return two;
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Units that must share a transaction name one lane (as a create payment names its terminal).
describe("issue 37: group commit of units on PostgreSQL", () => {
  it("units of one lane queued in one turn commit in one transaction", async () => {
    const s = await store();
    const before = { ...s.stats };
    await Promise.all(Array.from({ length: 20 }, (_, i) => s.write(inLane("terminal:T-1", (tx) => tx.meta.set(`k${i}`, String(i))))));
    expect(s.stats.units - before.units).toBe(20);
    expect(s.stats.batches - before.batches).toBe(1);
    expect(await s.q.meta.get("k19")).toBe("19");
  });

  it("units of any lane (a create payment) queued in one turn spread over the runners, the least busy first", async () => {
    const s = await store();
    const before = { ...s.stats };
    await Promise.all(Array.from({ length: 8 }, (_, i) => s.write(inLane(ANY_LANE, (tx) => tx.meta.set(`any${i}`, String(i))))));
    expect(s.stats.units - before.units).toBe(8);
    expect(s.stats.batches - before.batches).toBe(RUNNERS);
    expect(await s.q.meta.get("any7")).toBe("7");
  });

  it("a lane held open does not hold up units of other lanes; units without a lane commit in the order written", async () => {
    const s = await store();
    const [open, release] = gate();
    const held = s.write(
      inLane("terminal:T-1", async (tx) => {
        await tx.meta.set("held", "1");
        await open;
      }),
    );
    const others = Promise.all(
      ["delivery:d1", "delivery:d2", "delivery:d3"].map((lane) => s.write(inLane(lane, (tx) => tx.meta.set(lane, "1")))),
    );
    const first = await Promise.race([
      others.then(() => "others committed"),
      new Promise((r) => setTimeout(() => r("others waited"), 1_000)),
    ]);
    release();
    await Promise.all([held, others]);
    expect(first).toBe("others committed");
    const order: string[] = [];
    await Promise.all(["a", "b", "c"].map((k) => s.write((tx) => tx.meta.set(k, "1")).then(() => order.push(k))));
    expect(order).toEqual(["a", "b", "c"]);
  });

  it.each([
    [
      "throws",
      { message: "boom" },
      async (_tx: Repos) => {
        throw new Error("boom");
      },
    ],
    // The link's partner does not exist: PostgreSQL refuses the row and aborts the unit's savepoint.
    [
      "whose statement fails (a foreign key), even when it caught the error itself",
      { code: "23503" },
      async (tx: Repos) => {
        await tx.links.insert(LINK).catch(() => undefined);
      },
    ],
  ] as const)("a unit that %s fails alone; the others commit", async (_what, reason, fails) => {
    const s = await store();
    const results = await Promise.allSettled([
      s.write(inLane("one", (tx) => tx.meta.set("a", "1"))),
      s.write(
        inLane("one", async (tx) => {
          await tx.meta.set("b", "2");
          await fails(tx);
        }),
      ),
      s.write(inLane("one", (tx) => tx.meta.set("c", "3"))),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject(reason);
    expect([await s.q.meta.get("a"), await s.q.meta.get("b"), await s.q.meta.get("c")]).toEqual(["1", undefined, "3"]);
  });

  it("a unit sees the catalog changes of the units before it in its transaction, never a cached older row", async () => {
    const s = await store();
    await s.write(
      inLane("one", async (tx) => {
        await tx.partners.upsert(partnerRow("p1", 1));
        await tx.catalog.upsertPsp({ id: "psp-1", active: true });
        await tx.catalog.upsertConnection(connectionRow("c1", { dailyMax: 100 }));
      }),
    );
    // Cached by a read outside units, then read inside a transaction after a change made in it.
    expect((await cachedConnection(s, "c1"))?.dailyMax).toBe(100);
    const [, seen] = await Promise.all([
      s.write(inLane("one", (tx) => tx.catalog.upsertConnection(connectionRow("c1", { dailyMax: 200 })))),
      s.write(inLane("one", async (tx) => (await tx.catalog.connection("c1"))?.dailyMax)),
    ]);
    expect(seen).toBe(200);
    expect((await s.q.catalog.connection("c1"))?.dailyMax).toBe(200);
  });

  it("a unit that rolled back its catalog change leaves no trace of it in the cache", async () => {
    const s = await store();
    await s.write(async (tx) => {
      await tx.catalog.upsertPsp({ id: "psp-1", active: true });
      await tx.catalog.upsertConnection(connectionRow("c0"));
      await tx.catalog.upsertConnection(connectionRow("c1", { dailyMax: 100 }));
    });
    // The cache is live (c0 comes from memory); c1 is not in it yet.
    await cachedConnection(s, "c0");
    const changed = s.write(async (tx) => {
      await tx.catalog.upsertConnection(connectionRow("c1", { dailyMax: 300 }));
      expect((await tx.catalog.connection("c1"))?.dailyMax).toBe(300);
      throw new Error("changed my mind");
    });
    await expect(changed).rejects.toThrow("changed my mind");
    expect((await s.q.catalog.connection("c1"))?.dailyMax).toBe(100);
    expect((await cachedConnection(s, "c1"))?.dailyMax).toBe(100);
  });

  it("two instances' batches taking two rows in opposite orders: the waiting unit runs alone after its batch, well before PostgreSQL's deadlock timeout, and every unit commits", async () => {
    const [a, b] = await twoInstances();
    await a.write(
      inLane("one", async (tx) => {
        await tx.meta.set("x", "0");
        await tx.meta.set("y", "0");
      }),
    );
    // Each batch's first unit takes one row and waits until the other batch has taken the other.
    let arrived = 0;
    const [bothHold, release] = gate();
    const hold = async () => {
      arrived += 1;
      if (arrived === 2) release();
      await bothHold;
    };
    const started = Date.now();
    const units = await Promise.allSettled([
      a.write(
        inLane("one", async (tx) => {
          await tx.meta.set("x", "a");
          await hold();
        }),
      ),
      a.write(inLane("one", (tx) => tx.meta.set("y", "a"))),
      b.write(
        inLane("one", async (tx) => {
          await tx.meta.set("y", "b");
          await hold();
        }),
      ),
      b.write(inLane("one", (tx) => tx.meta.set("x", "b"))),
    ]);
    expect(units.map((u) => u.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    expect(Date.now() - started).toBeLessThan(900);
    // Every unit committed: each row holds one of their writes (which one depends on the order the
    // batches and their re-runs took), none the value from before.
    for (const row of ["x", "y"]) expect(["a", "b"]).toContain(await a.q.meta.get(row));
  });

  it("after one unit's lock wait times out, the rest of its batch runs alone after the commit instead of each waiting out 200 ms", async () => {
    const [a, b] = await twoInstances();
    await a.write((tx) => tx.meta.set("held", "0"));
    const [open, release] = gate();
    const [holding, held] = gate();
    const holder = b.write(
      inLane("one", async (tx) => {
        await tx.meta.set("held", "b");
        held();
        await open;
      }),
    );
    await holding;
    const batches: number[] = [];
    a.observeBatches((units, ms) => {
      if (units === 10) batches.push(ms);
    });
    const units = Promise.all(Array.from({ length: 10 }, (_, i) => a.write(inLane("one", (tx) => tx.meta.set("held", `a${i}`)))));
    await new Promise((r) => setTimeout(r, 2_500));
    release();
    await Promise.all([holder, units]);
    // Ten units each waiting 200 ms in turn would have kept the batch open 2 s.
    expect(batches).toHaveLength(1);
    expect(batches[0]).toBeLessThan(1_000);
    expect(await a.q.meta.get("held")).toBe("a9");
  });

  it("a payment on one connection never waits for another instance's open transaction on another connection (the metric counts are taken at commit)", async () => {
    const [a, b] = await twoInstances();
    await a.write(async (tx) => {
      await seedPartners(tx, ["p1"]);
      for (const t of TERMINALS.filter((t) => t.partnerId === "p1")) await seedTerminal(tx, t);
    });
    const payment = (code: string, terminal: (typeof TERMINALS)[number]) => ({
      code,
      partnerId: "p1",
      terminalId: terminal.id,
      connectionId: terminal.connectionId,
      linkId: null,
      amount: 10_000,
      createdAtMs: 1_000,
      expiresAtMs: 901_000,
      captured: null,
    });
    const [open, release] = gate();
    const [aInserted, inserted] = gate();
    const aDone = a.write(async (tx) => {
      await seedPayment(tx, payment("pay_a", TERMINALS[0]!));
      inserted();
      await open;
    });
    await aInserted;
    // a's transaction is open with its payment inserted; b's, on the other connection, commits meanwhile.
    const bDone = b.write((tx) => seedPayment(tx, payment("pay_b", TERMINALS[1]!)));
    const first = await Promise.race([bDone.then(() => "b committed"), new Promise((r) => setTimeout(() => r("b waited"), 1_000))]);
    release();
    await Promise.all([aDone, bDone]);
    expect(first).toBe("b committed");
    expect(await a.q.metrics.counts("payment")).toEqual([{ label: "initiated", n: 2 }]);
  });

  it("a payment's commit never waits for another session's count of payments at its commit (the counts are kept per session)", async () => {
    const db = await freshDatabase(inject("pgUrl"));
    closers.push(() => db.drop());
    const b = await openPostgresStore(db.url);
    closers.push(() => b.close());
    await b.write(async (tx) => {
      await seedPartners(tx, ["p1"]);
      for (const t of TERMINALS.filter((t) => t.partnerId === "p1")) await seedTerminal(tx, t);
    });
    const [one, two] = TERMINALS.filter((t) => t.partnerId === "p1") as [(typeof TERMINALS)[number], (typeof TERMINALS)[number]];
    // Session a inserts a payment and fires its deferred count now: its transaction holds its count row, as a commit does.
    const a = postgres(db.url, { max: 1, onnotice: () => {} });
    closers.push(() => a.end());
    const [open, release] = gate();
    const [counted, count] = gate();
    const aDone = holdPaymentCount(a, { code: "pay_a", partnerId: "p1", terminalId: one.id, connectionId: one.connectionId }, count, open);
    await counted;
    const bDone = b.write((tx) =>
      seedPayment(tx, {
        code: "pay_b",
        partnerId: "p1",
        terminalId: two.id,
        connectionId: two.connectionId,
        linkId: null,
        amount: 100,
        createdAtMs: 1_000,
        expiresAtMs: 2_000,
        captured: null,
      }),
    );
    const first = await Promise.race([bDone.then(() => "b committed"), new Promise((r) => setTimeout(() => r("b waited"), 1_000))]);
    release();
    await Promise.all([aDone, bDone]);
    expect(first).toBe("b committed");
    expect(await b.q.metrics.counts("payment")).toEqual([{ label: "initiated", n: 2 }]);
  });

  it("each unit's SAVEPOINT goes out in the same write as the unit's first statement: N one-statement units are N + 2 writes with BEGIN and COMMIT", async () => {
    const s = await store();
    await s.write((tx) => tx.meta.set("warm", "1")); // the runner's connection is open and its statements prepared
    const write = net.Socket.prototype.write;
    let writes = 0;
    net.Socket.prototype.write = function (this: net.Socket, ...args: Parameters<typeof write>) {
      writes += 1;
      return write.apply(this, args);
    } as typeof write;
    try {
      await Promise.all(Array.from({ length: 3 }, (_, i) => s.write(inLane("one", (tx) => tx.meta.set(`w${i}`, "1")))));
    } finally {
      net.Socket.prototype.write = write;
    }
    // Waiting for each savepoint, as postgres.js's own `savepoint` does: 2N + 2 = 8 writes.
    expect(writes).toBe(5);
  });

  it("a statement that fails in a batch rolls the batch back, and every unit of it runs again alone: the others commit, the failing one answers its error", async () => {
    const s = await store();
    await s.write((tx) => tx.meta.set("k", "0"));
    const runs = { a: 0, c: 0 };
    const results = await Promise.allSettled([
      s.write(
        inLane("one", async (tx) => {
          runs.a += 1;
          await tx.meta.set("a", String(runs.a));
        }),
      ),
      // The link's partner does not exist: PostgreSQL refuses the row.
      s.write(inLane("one", (tx) => tx.links.insert(LINK))),
      s.write(
        inLane("one", async (tx) => {
          runs.c += 1;
          await tx.meta.set("c", String(runs.c));
        }),
      ),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: "23503" });
    // a ran in the batch, which was rolled back, then alone; c ran alone only (the batch stopped at the failure).
    expect(runs).toEqual({ a: 2, c: 1 });
    expect([await s.q.meta.get("a"), await s.q.meta.get("c")]).toEqual(["2", "1"]);
  });

  it("every queued unit commits before close returns", async () => {
    const s = await store();
    const writes = Array.from({ length: 5 }, (_, i) => s.write((tx) => tx.meta.set(`z${i}`, "v")));
    await s.close();
    await expect(Promise.all(writes)).resolves.toHaveLength(5);
  });
});
