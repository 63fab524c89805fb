import { afterEach, describe, expect, it } from "vitest";
import { metaPg } from "../../src/store/postgres/meta-pg";
import { bothStores, type Both } from "./differential";

let both: Both | undefined;
afterEach(async () => {
  await both?.close();
  both = undefined;
});

describe("product 22: meta operations answer on PostgreSQL as on SQLite", () => {
  it("get, set, setOnce", async () => {
    both = await bothStores();
    const steps = async (m: {
      get(k: string): Promise<string | undefined>;
      set(k: string, v: string): Promise<void>;
      setOnce(k: string, v: string): Promise<string>;
    }) => [
      await m.get("a"),
      await m.set("a", "1"),
      await m.get("a"),
      await m.set("a", "2"),
      await m.setOnce("a", "3"),
      await m.setOnce("b", "4"),
      await m.get("b"),
    ];
    const sqlite = await both.sqlite((tx) => steps(tx.meta));
    const pg = await both.pg((sql) => steps(metaPg(sql)));
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual([undefined, undefined, "1", undefined, "2", "4", "4"]);
  });
});
