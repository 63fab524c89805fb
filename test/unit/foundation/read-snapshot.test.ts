import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDb } from "../../../src/store/sqlite/db";
import { readSnapshots } from "../../../src/store/sqlite/read-snapshot";
import { beginAndCommit, scratchTable } from "../../../src/store/sqlite/inspect";
import { openSqliteStore as openStore, type SqliteStore as Store } from "../../../src/store/sqlite/sqlite-store";

// Issue 37: reads outside units share one read transaction per macrotask (read-snapshot.ts).

const nextMacrotask = () => new Promise((resolve) => setImmediate(resolve));
const opened: Store[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function twoConnections(): Promise<[Store, Store]> {
  const file = join(mkdtempSync(join(tmpdir(), "kasa-snapshot-")), "kasa.db");
  const a = await openStore(file);
  const b = await openStore(file);
  opened.push(a, b);
  // Opening reads the file too: start from a macrotask of our own.
  await nextMacrotask();
  return [a, b];
}

describe("issue 37 read snapshots: one read transaction per macrotask", () => {
  it("the reads of one macrotask share a read transaction; the next macrotask ends it", async () => {
    const [a] = await twoConnections();
    expect(a.db.inTransaction()).toBe(false);
    expect(await a.q.fixtures.psps()).toEqual([]);
    expect(a.db.inTransaction()).toBe(true);
    await nextMacrotask();
    expect(a.db.inTransaction()).toBe(false);
  });

  it("what another connection commits is read from the next macrotask on", async () => {
    const [a, b] = await twoConnections();
    expect(await a.q.fixtures.psps()).toEqual([]);
    await b.write(async (tx) => await tx.catalog.upsertPsp({ id: "p", active: true }));
    expect(await a.q.fixtures.psps()).toEqual([{ id: "p", active: true }]);
  });

  it("a write or a statement on the connection itself first ends the snapshot", async () => {
    const [a] = await twoConnections();
    expect(await a.q.fixtures.psps()).toEqual([]);
    const written = a.write(async (tx) => await tx.catalog.upsertPsp({ id: "q", active: true }));
    expect(a.db.inTransaction()).toBe(true);
    await written;
    expect(await a.q.fixtures.psps()).toEqual([{ id: "q", active: true }]);
    beginAndCommit(a);
    expect(a.db.inTransaction()).toBe(false);
  });

  it("a read repeated in the snapshot answers the same rows, each caller with objects of its own", async () => {
    // The wrapper itself, below the store's named operations, on a scratch table.
    const db = readSnapshots(await openDb(":memory:"));
    const t = scratchTable(db);
    const first = t.all();
    first[0]!.n = 99;
    first.push({ id: "z", n: 0 });
    expect(t.all()).toEqual([{ id: "a", n: 1 }]);
    t.all()[0]!.n = 98;
    expect(t.all()).toEqual([{ id: "a", n: 1 }]);
    t.one("a")!.n = 7;
    expect(t.one("a")).toEqual({ id: "a", n: 1 });
    expect(t.one("b")).toBeUndefined();
    // One statement asked for a row and for all its rows keeps the two answers apart.
    expect(t.first()).toEqual({ id: "a", n: 1 });
    expect(t.all()).toEqual([{ id: "a", n: 1 }]);
    expect(t.first()).toEqual({ id: "a", n: 1 });
    // A write on the connection ends the snapshot, and what it kept with it.
    t.add("b", 2);
    expect(t.all()).toEqual([
      { id: "a", n: 1 },
      { id: "b", n: 2 },
    ]);
    expect(t.one("b")).toEqual({ id: "b", n: 2 });
    db.close();
  });
});
