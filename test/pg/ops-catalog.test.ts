import { afterEach, describe, expect, it } from "vitest";
import { secretBox } from "../../src/store/secret-box";
import type { BinRow, ConnectionRow, PartnerRow, TerminalRow } from "../../src/store/rows";
import type { CatalogOps, PartnersOps } from "../../src/store/store";
import { catalogPg } from "../../src/store/postgres/catalog-pg";
import { partnersPg } from "../../src/store/postgres/partners-pg";
import type { Pg } from "../../src/store/postgres/pg";
import { bothStores, type Both } from "./differential";
import { partnerRow } from "../support/catalog-rows";

// Issue 23: the catalog (PSPs, connections, terminals, BINs) answers on PostgreSQL as on SQLite:
// flags come back as booleans, JSON lists parsed, nulls as null, lists in byte order of the id.

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

type Ops = { partners: PartnersOps; catalog: CatalogOps };

const pgOps = (sql: Pg): Ops => ({ partners: partnersPg(sql, secretBox(null)), catalog: catalogPg(sql, secretBox(null)) });

/** Runs the same calls on both stores and answers both results. */
async function run<T>(steps: (o: Ops) => Promise<T>): Promise<{ sqlite: T; pg: T }> {
  both = await bothStores();
  const sqlite = await both.sqlite((tx) => steps(tx));
  const pg = await both.pg((sql) => steps(pgOps(sql)));
  return { sqlite, pg };
}

const partner = (id: string): PartnerRow => ({ ...partnerRow(id, 1), name: id });

const connection = (id: string, over: Partial<ConnectionRow> = {}): ConnectionRow => ({
  id,
  pspId: "psp-1",
  bank: "sim",
  active: true,
  acceptsForeignCards: false,
  acceptsDebit: true,
  perTxMax: 1_000_000,
  dailyMax: null,
  weeklyMax: 50_000_000,
  monthlyMax: null,
  windowMinutes: 10,
  windowMax: 2_000_000,
  bankConfig: null,
  breaker: null,
  ...over,
});

const terminal = (id: string, partnerId: string, over: Partial<TerminalRow> = {}): TerminalRow => ({
  id,
  partnerId,
  connectionId: "c-1",
  active: true,
  commissionBasis: "gross",
  installments: [1, 3, 6],
  rates: [
    { count: 1, brand: null, onUs: null, rateBps: 190, fixedFee: null },
    { count: 3, brand: "bonus", onUs: true, rateBps: 320, fixedFee: 25 },
  ],
  infrastructure: "standard",
  directCollection: false,
  valueDays: 1,
  valueDaysByCount: { "3": 30 },
  bank: null,
  allowedCardFamilies: ["credit", "debit"],
  routing: null,
  ...over,
});

/** PSPs, connections and partners the terminals hang off. */
async function seed({ partners, catalog }: Ops): Promise<void> {
  await catalog.upsertPsp({ id: "psp-1", active: true });
  await catalog.upsertConnection(connection("c-1"));
  await partners.upsert(partner("p-a"));
  await partners.upsert(partner("p-b"));
}

describe("product 22: catalog operations answer on PostgreSQL as on SQLite", () => {
  it("psp and upsertPsp", async () => {
    const { sqlite, pg } = await run(async ({ catalog }) => [
      await catalog.psp("psp-1"),
      await catalog.upsertPsp({ id: "psp-1", active: true }),
      await catalog.psp("psp-1"),
      await catalog.upsertPsp({ id: "psp-1", active: false }),
      await catalog.psp("psp-1"),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual([undefined, undefined, { id: "psp-1", active: true }, undefined, { id: "psp-1", active: false }]);
  });

  it("connection, connections and upsertConnection (bank settings optional)", async () => {
    const { sqlite, pg } = await run(async (o) => {
      await seed(o);
      const { catalog } = o;
      const { bankConfig: _, ...noConfig } = connection("C-2", { acceptsForeignCards: true, active: false });
      await catalog.upsertConnection(noConfig);
      await catalog.upsertConnection(connection("c-3", { bankConfig: '{"model":"3d"}', perTxMax: null }));
      const first = await catalog.connection("c-3");
      await catalog.upsertConnection(connection("c-3", { bankConfig: null, bank: "est", dailyMax: 9_007_199_254_740_991 }));
      return [first, await catalog.connection("c-3"), await catalog.connection("none"), await catalog.connections()];
    });
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual(connection("c-3", { bankConfig: '{"model":"3d"}', perTxMax: null }));
    expect((sqlite[3] as ConnectionRow[]).map((c) => c.id)).toEqual(["C-2", "c-1", "c-3"]);
  });

  it("terminal, terminals (all or one partner) and upsertTerminal", async () => {
    const { sqlite, pg } = await run(async (o) => {
      await seed(o);
      const { catalog } = o;
      await catalog.upsertTerminal(terminal("t-2", "p-b"));
      await catalog.upsertTerminal(
        terminal("T-1", "p-a", { valueDaysByCount: null, allowedCardFamilies: null, installments: [], rates: [], bank: "akbank" }),
      );
      await catalog.upsertTerminal(terminal("t-3", "p-a", { commissionBasis: "net", directCollection: true, valueDays: 0 }));
      const before = await catalog.terminal("t-3");
      await catalog.upsertTerminal(terminal("t-3", "p-a", { active: false, infrastructure: "extended" }));
      return [
        before,
        await catalog.terminal("t-3"),
        await catalog.terminal("none"),
        await catalog.terminals(null),
        await catalog.terminals("p-a"),
        await catalog.terminals("nobody"),
      ];
    });
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual(terminal("t-3", "p-a", { commissionBasis: "net", directCollection: true, valueDays: 0 }));
    expect((sqlite[3] as TerminalRow[]).map((t) => t.id)).toEqual(["T-1", "t-2", "t-3"]);
    expect((sqlite[4] as TerminalRow[]).map((t) => t.id)).toEqual(["T-1", "t-3"]);
  });

  it("bin, binCount and upsertBin", async () => {
    const bin = (b: string, over: Partial<BinRow> = {}): BinRow => ({
      bin: b,
      brand: "bonus",
      family: "credit",
      bank: "garanti",
      installments: true,
      ...over,
    });
    const { sqlite, pg } = await run(async ({ catalog }) => [
      await catalog.binCount(),
      await catalog.upsertBin(bin("454671")),
      await catalog.upsertBin(bin("979204", { brand: null, bank: null, family: "debit", installments: false })),
      await catalog.upsertBin(bin("454671", { family: "prepaid", installments: false })),
      await catalog.bin("454671"),
      await catalog.bin("979204"),
      await catalog.bin("000000"),
      await catalog.binCount(),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite[4]).toEqual(bin("454671", { family: "prepaid", installments: false }));
    expect(sqlite[7]).toBe(2);
  });
});
