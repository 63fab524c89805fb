import { afterEach, describe, expect, inject, it } from "vitest";
import { MasterKeyError } from "../../src/store/secret-box";
import { openPostgresStore, type PgStore } from "../../src/store/postgres/pg-store";
import { freshDatabase } from "../support/pg-cluster";
import { partnersSqlite as seedPartners, terminalSqlite as seedTerminal } from "./links-world";
import { LINK, TERMINALS } from "./money-world";

// Product 22: on PostgreSQL each unit of work is its own transaction; several kasa instances share
// the database; a duplicate key re-runs the unit once, which then answers as a replay.

const opened: PgStore[] = [];
const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
  for (const drop of drops.splice(0)) await drop();
});

async function database(): Promise<string> {
  const db = await freshDatabase(inject("pgUrl"));
  drops.push(db.drop);
  return db.url;
}
async function open(url: string, masterKey: Buffer | null = null): Promise<PgStore> {
  const store = await openPostgresStore(url, { masterKey });
  opened.push(store);
  return store;
}

describe("product 22 PostgreSQL store: units of work", () => {
  it("a unit commits as a whole; a unit that throws writes nothing", async () => {
    const store = await open(await database());
    await store.write(async (tx) => await tx.meta.set("a", "1"));
    await expect(
      store.write(async (tx) => {
        await tx.meta.set("b", "2");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect([await store.q.meta.get("a"), await store.q.meta.get("b")]).toEqual(["1", undefined]);
  });

  it("50 identical creates from two instances at once make one row; the others answer as replays (duplicate key: re-run once)", async () => {
    const url = await database();
    const [one, two] = [await open(url), await open(url)];
    await one.write(async (tx) => {
      await seedPartners(tx, [LINK.partnerId]);
      await seedTerminal(tx, TERMINALS[0]!);
    });
    const create = (store: PgStore) =>
      store.write(async (tx) => {
        if (await tx.links.get(LINK.id)) return "replay";
        await tx.links.insert(LINK);
        return "created";
      });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => create(i % 2 === 0 ? one : two)));
    expect(answers.filter((a) => a === "created")).toHaveLength(1);
    expect(answers.filter((a) => a === "replay")).toHaveLength(49);
    expect(await one.q.fixtures.linkCount()).toBe(1);
  });

  it("the schema is applied once however many instances start together", async () => {
    const url = await database();
    const stores = await Promise.all(Array.from({ length: 4 }, () => open(url)));
    await stores[0]!.write(async (tx) => await tx.meta.set("k", "v"));
    expect(await stores[3]!.q.meta.get("k")).toBe("v");
  });

  it("secrets at rest: the first key seals, a wrong key is refused (product 19, as on SQLite)", async () => {
    const url = await database();
    const key = Buffer.alloc(32, 1);
    await (await open(url, key)).q.secrets.sealedBy();
    expect(await (await open(url, key)).q.secrets.sealedBy()).not.toBeNull();
    await expect(openPostgresStore(url, { masterKey: Buffer.alloc(32, 2) })).rejects.toBeInstanceOf(MasterKeyError);
  });
});
