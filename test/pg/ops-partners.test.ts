import { afterEach, describe, expect, it } from "vitest";
import { secretBox } from "../../src/store/secret-box";
import type { ApiKeyRow, PartnerRow } from "../../src/store/rows";
import type { ApiKeysOps, PartnersOps } from "../../src/store/store";
import { apiKeysPg, partnersPg } from "../../src/store/postgres/partners-pg";
import type { Pg } from "../../src/store/postgres/pg";
import { bothStores, type Both } from "./differential";

// Issue 23: partners and API keys answer on PostgreSQL as on SQLite. The SQLite store is opened
// without a master key, so the PostgreSQL side uses secretBox(null) too.

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

type Ops = { partners: PartnersOps; apiKeys: ApiKeysOps };

const pgOps = (sql: Pg): Ops => ({ partners: partnersPg(sql, secretBox(null)), apiKeys: apiKeysPg(sql) });

/** Runs the same calls on both stores and answers both results. */
async function run<T>(steps: (o: Ops) => Promise<T>): Promise<{ sqlite: T; pg: T }> {
  both = await bothStores();
  const sqlite = await both.sqlite((tx) => steps(tx));
  const pg = await both.pg((sql) => steps(pgOps(sql)));
  return { sqlite, pg };
}

const partner = (id: string, over: Partial<PartnerRow> = {}): PartnerRow => ({
  id,
  name: `Partner ${id}`,
  status: "active",
  allowedRedirectHosts: ["shop.example", "pay.example"],
  amountMin: 100,
  amountMax: 5_000_000_00,
  cardAttemptLimit: 3,
  installmentCap: 6,
  webhookUrl: "https://shop.example/hook",
  webhookSecret: `whsec-${id}`,
  rateLimitMultiplier: 1.5,
  payoutAccount: "TR000000000000000000000001",
  createdAtMs: 1_700_000_000_000,
  ...over,
});

const key = (id: string, partnerId: string, createdAtMs: number, over: Partial<ApiKeyRow> = {}): ApiKeyRow => ({
  id,
  partnerId,
  keyHash: `hash-${id}`,
  keyHint: `kasa_sk_…${id}`,
  createdAtMs,
  revokedAtMs: null,
  ...over,
});

describe("product 22: partners and API keys answer on PostgreSQL as on SQLite", () => {
  it("partners: get, list (byte order), upsert replaces, nulls stay null", async () => {
    const { sqlite, pg } = await run(async ({ partners }) => [
      await partners.get("p-a"),
      await partners.upsert(partner("p-a")),
      await partners.upsert(partner("P-c", { allowedRedirectHosts: null, webhookSecret: null, amountMin: null })),
      await partners.upsert(partner("p-B")),
      await partners.get("p-a"),
      await partners.upsert(partner("p-a", { name: "Renamed", status: "suspended", rateLimitMultiplier: 0.25 })),
      await partners.get("p-a"),
      await partners.list(),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toBeUndefined();
    expect(sqlite[4]).toEqual(partner("p-a"));
    expect((sqlite[7] as PartnerRow[]).map((p) => p.id)).toEqual(["P-c", "p-B", "p-a"]);
  });

  it("nextLinkReference counts per partner and answers 0 for an unknown one", async () => {
    const { sqlite, pg } = await run(async ({ partners }) => {
      await partners.upsert(partner("p-a"));
      await partners.upsert(partner("p-b"));
      return [
        await partners.nextLinkReference("p-a"),
        await partners.nextLinkReference("p-a"),
        await partners.nextLinkReference("p-b"),
        await partners.nextLinkReference("nobody"),
        await partners.nextLinkReference("p-a"),
      ];
    });
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual([1, 2, 1, 0, 3]);
  });

  it("nextLinkReference on PostgreSQL: concurrent transactions never get the same number", async () => {
    both = await bothStores();
    const b = both;
    await b.pg((sql) => partnersPg(sql).upsert(partner("p-a")));
    const issue = () =>
      b.pg(async (sql) => {
        const got: number[] = [];
        for (let i = 0; i < 10; i++) got.push(await partnersPg(sql).nextLinkReference("p-a"));
        return got;
      });
    const issued = (await Promise.all([issue(), issue(), issue()])).flat().sort((x, y) => x - y);
    expect(issued).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it("apiKeys: insert is idempotent by hash, byHash, get, list, revoke once", async () => {
    const { sqlite, pg } = await run(async ({ partners, apiKeys }) => {
      await partners.upsert(partner("p-b"));
      await partners.upsert(partner("p-a"));
      return [
        await apiKeys.insert(key("k1", "p-b", 30)),
        await apiKeys.insert(key("k1-again", "p-b", 31, { keyHash: "hash-k1" })),
        await apiKeys.insert(key("k2", "p-a", 20)),
        await apiKeys.insert(key("k3", "p-a", 10, { revokedAtMs: 15 })),
        await apiKeys.byHash("hash-k2"),
        await apiKeys.byHash("hash-none"),
        await apiKeys.get("k3"),
        await apiKeys.get("k1-again"),
        await apiKeys.list(null),
        await apiKeys.list("p-a"),
        await apiKeys.list("nobody"),
        await apiKeys.revoke("k2", 40),
        await apiKeys.revoke("k2", 50),
        await apiKeys.revoke("k3", 50),
        await apiKeys.revoke("none", 50),
        await apiKeys.get("k2"),
      ];
    });
    expect(pg).toEqual(sqlite);
    expect(sqlite.slice(0, 4)).toEqual([true, false, true, true]);
    expect((sqlite[8] as ApiKeyRow[]).map((k) => k.id)).toEqual(["k3", "k2", "k1"]);
    expect(sqlite.slice(11, 15)).toEqual([true, false, false, false]);
  });
});
