import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bothStores, type Both } from "./differential";
import { newPayment, type Ops, onBoth, seedWorld, T0 } from "./payments-world";

// Issue 23: the attempts group answers on PostgreSQL as on SQLite.

let both: Both;
beforeEach(async () => {
  both = await bothStores();
  await seedWorld(both);
});
afterEach(async () => both.close());

const CODE = newPayment(1).code;
// Issue 29: an attempt records the terminal and connection it was routed to (null only in fixtures).
const routed = { terminalId: "T-1", connectionId: "vpos-1" };
const unrouted = { terminalId: null, connectionId: null };

describe("product 22: attempts operations answer on PostgreSQL as on SQLite", () => {
  it("insert, get, byPayment (creation order, the id breaking ties)", async () => {
    const steps = async (o: Ops) => {
      await o.payments.insert(newPayment(1));
      await o.payments.insert(newPayment(2));
      await o.attempts.insert({ ...unrouted, id: "att_c", paymentCode: CODE, status: "starting", counted: false, createdAtMs: T0 + 2 });
      await o.attempts.insert({ ...routed, id: "att_b", paymentCode: CODE, status: "acs", counted: true, createdAtMs: T0 + 1 });
      await o.attempts.insert({ ...unrouted, id: "att_a", paymentCode: CODE, status: "starting", counted: false, createdAtMs: T0 + 2 });
      await o.attempts.insert({
        ...routed,
        id: "att_z",
        paymentCode: newPayment(2).code,
        status: "starting",
        counted: false,
        createdAtMs: T0,
      });
      return [
        await o.attempts.get("att_b"),
        await o.attempts.get("att_missing"),
        await o.attempts.byPayment(CODE),
        await o.attempts.byPayment("pay_none"),
      ];
    };
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual({
      ...routed,
      route: null,
      id: "att_b",
      paymentCode: CODE,
      status: "acs",
      counted: true,
      createdAtMs: T0 + 1,
      updatedAtMs: T0 + 1,
    });
    expect((sqlite[2] as { id: string }[]).map((a) => a.id)).toEqual(["att_b", "att_a", "att_c"]);
  });

  it("docs/routing.md: reroute moves only a starting attempt; the route record and the payment's connection move read back alike", async () => {
    const route = { rule: "fallback", order: "rules" as const, skipped: [{ terminalId: "T-1", reason: "unavailable" as const }] };
    const steps = async (o: Ops) => {
      await o.payments.insert(newPayment(1));
      await o.attempts.insert({
        ...routed,
        id: "att_r",
        paymentCode: CODE,
        status: "starting",
        counted: false,
        createdAtMs: T0,
        route: null,
      });
      const moved = await o.attempts.reroute("att_r", { terminalId: "T-1", connectionId: "vpos-1", route }, T0 + 5);
      await o.attempts.move("att_r", ["starting"], "acs", T0 + 6);
      const again = await o.attempts.reroute("att_r", { terminalId: "T-1", connectionId: "vpos-1", route: null }, T0 + 7);
      const sameConnection = await o.payments.moveConnection(CODE, "vpos-1", T0 + 8);
      return [moved, again, sameConnection, await o.attempts.get("att_r")];
    };
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite.slice(0, 3)).toEqual([true, false, false]);
    expect(sqlite[3]).toMatchObject({ route, status: "acs" });
  });

  it("move and closeOpen change only attempts in `from`; counted never goes back", async () => {
    const steps = async (o: Ops) => {
      await o.payments.insert(newPayment(1));
      for (const id of ["att_1", "att_2", "att_3"]) {
        await o.attempts.insert({ ...unrouted, id, paymentCode: CODE, status: "starting", counted: false, createdAtMs: T0 });
      }
      return [
        await o.attempts.move("att_1", ["starting"], "acs", T0 + 1, true),
        await o.attempts.move("att_1", ["acs"], "capturing", T0 + 2),
        await o.attempts.move("att_1", ["acs"], "captured", T0 + 3),
        await o.attempts.move("att_2", [], "declined", T0 + 4, true),
        await o.attempts.move("att_2", ["starting"], "declined", T0 + 5),
        await o.attempts.closeOpen(CODE, ["starting", "acs", "capturing"], "failed", T0 + 6),
        await o.attempts.closeOpen(CODE, ["starting"], "failed", T0 + 7),
        await o.attempts.byPayment(CODE),
      ];
    };
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite.slice(0, 7)).toEqual([true, true, false, false, true, 2, 0]);
  });
});
