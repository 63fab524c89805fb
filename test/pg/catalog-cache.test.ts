import { afterEach, describe, expect, inject, it } from "vitest";
import { openPostgresStore } from "../../src/store/postgres/pg-store";
import type { Store } from "../../src/store/store";
import { connectionRow, partnerRow } from "../support/catalog-rows";
import { freshDatabase } from "../support/pg-cluster";

// Issue 37 (docs/postgresql.md, The catalog cache): each instance serves the catalog reads of a
// request from memory, exact under changes: its own writes are seen by its next read, another
// instance's once that instance's NOTIFY arrives. Two stores on one database stand for two instances.

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function twoInstances(): Promise<{ a: Store; b: Store }> {
  const db = await freshDatabase(inject("pgUrl"));
  closers.push(() => db.drop());
  const open = async () => {
    const store = await openPostgresStore(db.url);
    closers.push(() => store.close());
    return store;
  };
  const a = await open();
  const b = await open();
  await a.write(async (tx) => {
    await tx.partners.upsert(partnerRow("ptn_1", 1));
    await tx.apiKeys.insert({
      id: "key_1",
      partnerId: "ptn_1",
      keyHash: "ab".repeat(32),
      keyHint: "…0001",
      createdAtMs: 1,
      revokedAtMs: null,
    });
    await tx.catalog.upsertPsp({ id: "psp-1", active: true });
    await tx.catalog.upsertConnection(connectionRow("vpos-1"));
  });
  return { a, b };
}

/** Reads until `done` holds (a notification is asynchronous), at most two seconds. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 2_000;
  let value = await read();
  while (!done(value) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 10));
    value = await read();
  }
  return value;
}

describe("issue 37: the PostgreSQL catalog cache stays exact", () => {
  it("a key revoked by another instance stops authenticating here once its notification arrives", async () => {
    const { a, b } = await twoInstances();
    const hash = "ab".repeat(32);
    // The first read starts the LISTEN; once it is confirmed, reads are served from memory: the
    // same frozen row twice, not a new one read from the database each time.
    const [first, second] = await eventually(
      async () => [await a.q.apiKeys.byHash(hash), await a.q.apiKeys.byHash(hash)] as const,
      ([x, y]) => x !== undefined && x === y,
    );
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first?.revokedAtMs).toBeNull();
    await b.write(async (tx) => void (await tx.apiKeys.revoke("key_1", 5)));
    const seen = await eventually(
      async () => (await a.q.apiKeys.byHash(hash))?.revokedAtMs,
      (v) => v !== null,
    );
    expect(seen).toBe(5);
  });

  it("this instance's own change is seen by its very next read", async () => {
    const { a } = await twoInstances();
    await eventually(
      async () => [await a.q.catalog.connection("vpos-1"), await a.q.catalog.connection("vpos-1")] as const,
      ([x, y]) => x !== undefined && x === y,
    );
    await a.write(async (tx) => tx.catalog.upsertConnection(connectionRow("vpos-1", { active: false })));
    expect((await a.q.catalog.connection("vpos-1"))?.active).toBe(false);
  });

  it("a partner suspended by another instance is read suspended", async () => {
    const { a, b } = await twoInstances();
    await eventually(
      async () => [await a.q.partners.get("ptn_1"), await a.q.partners.get("ptn_1")] as const,
      ([x, y]) => x !== undefined && x === y,
    );
    await b.write(async (tx) => tx.partners.upsert(partnerRow("ptn_1", 1, { status: "suspended" })));
    expect(
      await eventually(
        async () => (await a.q.partners.get("ptn_1"))?.status,
        (v) => v === "suspended",
      ),
    ).toBe("suspended");
  });
});
