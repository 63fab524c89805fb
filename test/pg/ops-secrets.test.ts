import { afterEach, describe, expect, it } from "vitest";
import { secretBox } from "../../src/store/secret-box";
import type { ConnectionRow, PartnerRow } from "../../src/store/rows";
import { connectionRow, partnerRow } from "../support/catalog-rows";
import type { CatalogOps, PartnersOps, SecretsOps } from "../../src/store/store";
import { catalogPg } from "../../src/store/postgres/catalog-pg";
import { partnersPg } from "../../src/store/postgres/partners-pg";
import type { Pg } from "../../src/store/postgres/pg";
import { secretsPg } from "../../src/store/postgres/secrets-pg";
import { bothStores, type Both } from "./differential";

// Issue 23: re-sealing the secrets at rest (partners' webhook secrets, connections' bank settings)
// answers on PostgreSQL as on SQLite. The SQLite store has no master key, so neither side opens a
// sealed value until it is back in clear; the sealed bytes differ (random nonces) and are not compared.

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

type Ops = { partners: PartnersOps; catalog: CatalogOps; secrets: SecretsOps };

const master = Buffer.alloc(32, 7);

const pgOps = (sql: Pg, key: Buffer | null = null): Ops => ({
  partners: partnersPg(sql, secretBox(key)),
  catalog: catalogPg(sql, secretBox(key)),
  secrets: secretsPg(sql, secretBox(key)),
});

const partner = (id: string, webhookSecret: string | null): PartnerRow =>
  partnerRow(id, 1, { name: id, webhookUrl: "https://shop.example/hook", webhookSecret });

const connection = (id: string, bankConfig: string | null): ConnectionRow => connectionRow(id, { bank: "est", bankConfig });

/** Two secrets of each kind and one empty column of each kind: four values to re-seal. */
async function seed({ partners, catalog }: Ops): Promise<void> {
  await partners.upsert(partner("p-a", "whsec-a"));
  await partners.upsert(partner("p-b", "whsec-b"));
  await partners.upsert(partner("p-c", null));
  await catalog.upsertPsp({ id: "psp-1", active: true });
  await catalog.upsertConnection(connection("c-1", '{"clientId":"1"}'));
  await catalog.upsertConnection(connection("c-2", '{"clientId":"2"}'));
  await catalog.upsertConnection(connection("c-3", null));
}

/** A read that fails answers the error's name, so both stores' refusals compare. */
const outcome = <T>(p: Promise<T>): Promise<T | string> => p.catch((error: Error) => error.name);

describe("product 22: secrets operations answer on PostgreSQL as on SQLite", () => {
  it("sealedBy, reseal to a key (sealed values refuse to open without it), and back to clear", async () => {
    const steps = async (o: Ops) => {
      await seed(o);
      const before = await o.secrets.sealedBy();
      const sealed = await o.secrets.reseal(secretBox(null), secretBox(master));
      const keyId = await o.secrets.sealedBy();
      const refused = [await outcome(o.partners.get("p-a")), await outcome(o.catalog.connection("c-1"))];
      const opened = await o.secrets.reseal(secretBox(master), secretBox(null));
      return [before, sealed, keyId, refused, opened, await o.secrets.sealedBy(), await o.partners.list(), await o.catalog.connections()];
    };
    both = await bothStores();
    const sqlite = await both.sqlite((tx) => steps(tx));
    const pg = await both.pg((sql) => steps(pgOps(sql)));
    expect(pg).toEqual(sqlite);
    expect(sqlite.slice(0, 6)).toEqual([null, 4, secretBox(master).keyId, ["MasterKeyError", "MasterKeyError"], 4, null]);
    expect(sqlite[6]).toEqual([partner("p-a", "whsec-a"), partner("p-b", "whsec-b"), partner("p-c", null)]);
  });

  it("on PostgreSQL a sealed secret opens with the key, and a second key re-seals it", async () => {
    both = await bothStores();
    const next = Buffer.alloc(32, 9);
    const got = await both.pg(async (sql) => {
      await seed(pgOps(sql));
      await secretsPg(sql, secretBox(null)).reseal(secretBox(null), secretBox(master));
      const withKey = [await pgOps(sql, master).partners.get("p-a"), await pgOps(sql, master).catalog.connection("c-2")];
      const rotated = await secretsPg(sql, secretBox(null)).reseal(secretBox(master), secretBox(next));
      return [...withKey, rotated, await secretsPg(sql, secretBox(null)).sealedBy(), await pgOps(sql, next).partners.get("p-b")];
    });
    expect(got).toEqual([
      partner("p-a", "whsec-a"),
      connection("c-2", '{"clientId":"2"}'),
      4,
      secretBox(next).keyId,
      partner("p-b", "whsec-b"),
    ]);
  });
});

describe("product 27: a bank's own secret on PostgreSQL as on SQLite", () => {
  it("bankSecret is made once, and reseal seals and opens it with the other secrets", async () => {
    const steps = async (o: Ops) => {
      const first = [await o.secrets.bankSecret("sim", "sim_one"), await o.secrets.bankSecret("sim", "sim_two")];
      const sealed = await o.secrets.reseal(secretBox(null), secretBox(master));
      const opened = await o.secrets.reseal(secretBox(master), secretBox(null));
      return [first, sealed, opened, await o.secrets.bankSecret("sim", "sim_three")];
    };
    both = await bothStores();
    const sqlite = await both.sqlite((tx) => steps(tx));
    const pg = await both.pg((sql) => steps(pgOps(sql)));
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual([["sim_one", "sim_one"], 1, 1, "sim_one"]);
  });
});
