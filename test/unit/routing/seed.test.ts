import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applySeed, parseSeed } from "../../../src/domain/partners/seed";
import { openSqliteStore as openStore } from "../../../src/store/sqlite/sqlite-store";
import type { Store } from "../../../src/store/store";
import { routingSeed } from "../../api/routing-world";
import { TEST_SEED } from "../../support/fixtures";

// docs/routing.md, The seed object (product 25): what the seed refuses on a router, naming the field.

let store: Store;
beforeEach(async () => {
  store = await openStore(":memory:");
});
afterEach(async () => store.close());

const T0 = Date.parse("2026-11-20T09:00:00.000Z");
const apply = async (seed: unknown) => applySeed(store, parseSeed(seed), T0, () => `key_${Math.random()}`);

type Json = Record<string, any>;
/** The routing world's seed with the router (last terminal) changed by `edit`. */
function withRouter(edit: (router: Json, seed: Json) => void): Json {
  const seed = structuredClone(routingSeed()) as Json;
  edit(seed.terminals[seed.terminals.length - 1], seed);
  return seed;
}
const member = (s: Json, id: string): Json => s.terminals.find((t: Json) => t.id === id);
const ROUTER = `terminals[${routingSeed().terminals!.length - 1}]`;

describe("product 25: a router's seed object is refused naming the field", () => {
  it.each([
    ["connection", (r: Json) => (r.connection = "vpos-1"), `${ROUTER}.connection`],
    ["rates", (r: Json) => (r.rates = [{ count: 1, rateBps: 100 }]), `${ROUTER}.rates`],
    ["installments", (r: Json) => (r.installments = [1]), `${ROUTER}.installments`],
    ["valueDays", (r: Json) => (r.valueDays = 1), `${ROUTER}.valueDays`],
    ["bank", (r: Json) => (r.bank = "Demo Bank A"), `${ROUTER}.bank`],
    ["directCollection", (r: Json) => (r.directCollection = false), `${ROUTER}.directCollection`],
    ["a member of another partner", (_r: Json, s: Json) => (member(s, "T-A").partner = "ptn_other"), `${ROUTER}.routing.members[0]`],
    [
      "a member of another commission basis",
      (_r: Json, s: Json) => (member(s, "T-B").commissionBasis = "net"),
      `${ROUTER}.routing.members[1]`,
    ],
    ["a member that is a router", (r: Json) => r.routing.members.push("T-R"), `${ROUTER}.routing.members[3]`],
    ["an unknown member", (r: Json) => r.routing.members.push("T-NOPE"), `${ROUTER}.routing.members[3]`],
    [
      "a route terminal that is not a member",
      (r: Json) => (r.routing.rules = [{ name: "x", when: {}, route: ["T-1"] }]),
      `${ROUTER}.routing.rules[0].route[0]`,
    ],
    [
      "a split terminal that is not a member",
      (r: Json) => (r.routing.rules = [{ name: "x", when: {}, split: [{ terminal: "T-1", weight: 1 }] }]),
      `${ROUTER}.routing.rules[0].split[0].terminal`,
    ],
    ["a fallback terminal that is not a member", (r: Json) => (r.routing.fallback = ["T-A", "T-1"]), `${ROUTER}.routing.fallback[1]`],
    [
      "a split weight of zero",
      (r: Json) => (r.routing.rules = [{ name: "x", when: {}, split: [{ terminal: "T-A", weight: 0 }] }]),
      `${ROUTER}.routing.rules[0].split[0].weight`,
    ],
    [
      "a negative split weight",
      (r: Json) => (r.routing.rules = [{ name: "x", when: {}, split: [{ terminal: "T-A", weight: -3 }] }]),
      `${ROUTER}.routing.rules[0].split[0].weight`,
    ],
    [
      "a rule with both route and split",
      (r: Json) => (r.routing.rules = [{ name: "x", when: {}, route: ["T-A"], split: [{ terminal: "T-B", weight: 1 }] }]),
      `${ROUTER}.routing.rules[0].route`,
    ],
    ["a rule with neither", (r: Json) => (r.routing.rules = [{ name: "x", when: {} }]), `${ROUTER}.routing.rules[0].route`],
    [
      "a rule named fallback",
      (r: Json) => (r.routing.rules = [{ name: "fallback", when: {}, route: ["T-A"] }]),
      `${ROUTER}.routing.rules[0].name`,
    ],
    ["an unknown order", (r: Json) => (r.routing.order = "random"), `${ROUTER}.routing.order`],
    [
      "an unknown when key",
      (r: Json) => (r.routing.rules = [{ name: "x", when: { colour: "red" }, route: ["T-A"] }]),
      `${ROUTER}.routing.rules[0].when.colour`,
    ],
  ])("%s", async (_name, edit, path) => {
    await apply(TEST_SEED);
    const before = await store.q.catalog.terminals(null);
    await expect(apply(withRouter(edit))).rejects.toThrow(path);
    expect(await store.q.catalog.terminals(null)).toEqual(before);
  });

  it("a plain terminal still needs its connection, installments and rates", async () => {
    const seed = structuredClone(TEST_SEED) as Json;
    delete seed.terminals[0].rates;
    await expect(apply(seed)).rejects.toThrow("terminals[0].rates: is required");
  });

  it("a valid router is stored with its routing, defaults filled; a member may come from an earlier seed", async () => {
    await apply(routingSeed());
    const router = await store.q.catalog.terminal("T-R");
    expect(router?.routing).toEqual({
      members: ["T-A", "T-B", "T-C"],
      rules: [],
      fallback: ["T-A", "T-B", "T-C"],
      order: "rules",
      onUsInstallments: false,
    });
    const later = { terminals: [{ id: "T-R2", partner: "ptn_test", routing: { members: ["T-A"] } }] };
    await apply(later);
    expect((await store.q.catalog.terminal("T-R2"))?.routing?.fallback).toEqual(["T-A"]);
  });

  it("a connection's breaker settings are stored with the defaults filled", async () => {
    await apply({ ...TEST_SEED, connections: [{ id: "vpos-1", psp: "psp-1", breaker: { failures: 3 } }] });
    expect((await store.q.catalog.connection("vpos-1"))?.breaker).toEqual({ failures: 3, windowSeconds: 60, cooldownSeconds: 30 });
  });
});
