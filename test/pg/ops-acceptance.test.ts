import { afterEach, describe, expect, it } from "vitest";
import { secretBox } from "../../src/store/secret-box";
import type { AgreementRow, PartnerRow } from "../../src/store/rows";
import type { AcceptanceOps, PartnersOps } from "../../src/store/store";
import { acceptancePg } from "../../src/store/postgres/acceptance-pg";
import { partnersPg } from "../../src/store/postgres/partners-pg";
import type { Pg } from "../../src/store/postgres/pg";
import { bothStores, type Both } from "./differential";
import { partnerRow } from "../support/catalog-rows";

// Issue 23: holds and agreements (the payment guard of product 15) answer on PostgreSQL as on SQLite.

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

type Ops = { partners: PartnersOps; acceptance: AcceptanceOps };

const pgOps = (sql: Pg): Ops => ({ partners: partnersPg(sql, secretBox(null)), acceptance: acceptancePg(sql) });

/** Runs the same calls on both stores, after seeding partners p-a and p-b, and answers both results. */
async function run<T>(steps: (o: Ops) => Promise<T>): Promise<{ sqlite: T; pg: T }> {
  both = await bothStores();
  const seeded = async (o: Ops) => {
    for (const id of ["p-a", "p-b"]) await o.partners.upsert(partner(id));
    return steps(o);
  };
  const sqlite = await both.sqlite((tx) => seeded(tx));
  const pg = await both.pg((sql) => seeded(pgOps(sql)));
  return { sqlite, pg };
}

const partner = (id: string): PartnerRow => ({ ...partnerRow(id, 1), name: id });

const agreement = (code: string, version: string, over: Partial<AgreementRow> = {}): AgreementRow => ({
  partnerId: "p-a",
  agreementCode: code,
  version,
  agreementName: `Agreement ${code}`,
  requirement: "consent",
  kind: "first",
  deadlineAtMs: 1_000,
  acceptedAtMs: null,
  createdAtMs: 100,
  ...over,
});

describe("product 22: acceptance operations answer on PostgreSQL as on SQLite", () => {
  it("holds: setHold keeps the first since, clearHold once, blocksPayments while held", async () => {
    const { sqlite, pg } = await run(async ({ acceptance }) => [
      await acceptance.holds("p-a"),
      await acceptance.blocksPayments("p-a", 0),
      await acceptance.setHold({ partnerId: "p-a", reason: "admin_hold", sinceMs: 10 }),
      await acceptance.setHold({ partnerId: "p-a", reason: "admin_hold", sinceMs: 20 }),
      await acceptance.holds("p-a"),
      await acceptance.blocksPayments("p-a", 0),
      await acceptance.blocksPayments("p-b", 0),
      await acceptance.clearHold("p-a", "admin_hold"),
      await acceptance.clearHold("p-a", "admin_hold"),
      await acceptance.holds("p-a"),
      await acceptance.blocksPayments("p-a", 0),
    ]);
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual([
      [],
      false,
      true,
      false,
      [{ partnerId: "p-a", reason: "admin_hold", sinceMs: 10 }],
      true,
      false,
      true,
      false,
      [],
      false,
    ]);
  });

  it("agreements: upsert, one and all in order, deadlines block until accepted", async () => {
    const { sqlite, pg } = await run(async ({ acceptance }) => {
      await acceptance.upsertAgreement(agreement("tos", "2", { createdAtMs: 200, kind: "renewal", deadlineAtMs: 2_000 }));
      await acceptance.upsertAgreement(agreement("tos", "1"));
      await acceptance.upsertAgreement(agreement("KVKK", "1", { requirement: "wet_signature", deadlineAtMs: null }));
      await acceptance.upsertAgreement(agreement("dpa", "1", { partnerId: "p-b", acceptedAtMs: 5 }));
      const early = [await acceptance.blocksPayments("p-a", 999), await acceptance.blocksPayments("p-a", 1_000)];
      await acceptance.upsertAgreement(agreement("tos", "1", { agreementName: "Terms", deadlineAtMs: 1_500 }));
      return [
        early,
        await acceptance.agreement("p-a", "tos", "1"),
        await acceptance.agreement("p-a", "tos", "9"),
        await acceptance.agreements("p-a"),
        await acceptance.agreements("p-b"),
        await acceptance.blocksPayments("p-a", 1_500),
        await acceptance.accept("p-a", "tos", 1_600),
        await acceptance.accept("p-a", "tos", 1_700),
        await acceptance.blocksPayments("p-a", 1_900),
        await acceptance.blocksPayments("p-b", 9_999),
        await acceptance.agreements("p-a"),
      ];
    });
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual([false, true]);
    expect((sqlite[3] as AgreementRow[]).map((a) => `${a.agreementCode}/${a.version}`)).toEqual(["KVKK/1", "tos/1", "tos/2"]);
    expect(sqlite.slice(5, 10)).toEqual([true, 2, 0, false, false]);
  });
});
