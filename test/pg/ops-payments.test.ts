import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startOfIstanbulDayMs, startOfIstanbulMonthMs, startOfIstanbulWeekMs } from "../../src/domain/checks/istanbul-time";
import type { UsageWindows } from "../../src/store/rows";
import type { CaptureFacts, CardFacts } from "../../src/store/rows-money";
import { bothStores, type Both } from "./differential";
import { newPayment, type Ops, onBoth, seedWorld, T0 } from "./payments-world";

// Issue 23: the payments group answers on PostgreSQL as on SQLite (reads, conditional moves,
// connection-limit totals). Each sequence runs on both stores and the answers are compared whole.

let both: Both;
beforeEach(async () => {
  both = await bothStores();
  await seedWorld(both);
});
afterEach(async () => both.close());

const CARD: CardFacts = {
  maskedPan: "454360******1234",
  cardBrand: "visa",
  cardFamily: "credit",
  cardBank: "b",
  appliedRateBps: 250,
  appliedFixedFee: null,
};
const CAPTURE: CaptureFacts = {
  commissionAmount: 25,
  netToPartner: 975,
  expectedValueDate: "2026-12-01",
  bankReference: "br",
  authCode: "ac",
};

const windows = (nowMs: number, windowMinutes: number): UsageWindows => ({
  dayFromMs: startOfIstanbulDayMs(nowMs),
  weekFromMs: startOfIstanbulWeekMs(nowMs),
  monthFromMs: startOfIstanbulMonthMs(nowMs),
  windowAfterMs: nowMs - windowMinutes * 60_000,
});

describe("product 22: payments operations answer on PostgreSQL as on SQLite", () => {
  it("insert, get, getOwned, byRef, holdingTxCode", async () => {
    const steps = async (o: Ops) => [
      await o.payments.insert(newPayment(1, { description: "d", returnUrl: "https://shop.example/r" })),
      await o.payments.insert(newPayment(2, { terminalId: "T-3", partnerTxCode: "tx-1" })),
      await o.payments.get(newPayment(1).code),
      await o.payments.get("pay_missing"),
      await o.payments.getOwned("ptn_a", newPayment(1).code),
      await o.payments.getOwned("ptn_b", newPayment(1).code),
      await o.payments.byRef(newPayment(2).paymentRef),
      await o.payments.byRef("ref_missing"),
      await o.payments.holdingTxCode("ptn_a", "tx-1"),
      await o.payments.markFailed(newPayment(1).code, ["initiated"], T0 + 1),
      await o.payments.holdingTxCode("ptn_a", "tx-1"),
      await o.payments.holdingTxCode("ptn_b", "tx-1"),
    ];
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite[0]).toEqual(sqlite[2]);
    expect(sqlite[5]).toBeUndefined();
    expect(sqlite[10]).toBeUndefined();
  });

  it("3D start, release, counted attempts, capture, failure and expiry move only from their states", async () => {
    const code = newPayment(1).code;
    const steps = async (o: Ops) => [
      await o.payments.insert(newPayment(1)),
      await o.payments.countAttempt(code, ["initiated"], T0 + 1),
      await o.payments.markThreeDStarted(code, ["initiated"], CARD, T0 + 2),
      await o.payments.markThreeDStarted(code, ["initiated"], CARD, T0 + 3),
      await o.payments.countAttempt(code, ["initiated"], T0 + 4),
      await o.payments.get(code),
      await o.payments.releaseThreeD(code, ["initiated"], T0 + 5),
      await o.payments.releaseThreeD(code, ["initiated"], T0 + 6),
      await o.payments.markCaptured(code, ["captured"], CAPTURE, T0 + 7),
      await o.payments.markCaptured(code, ["initiated"], CAPTURE, T0 + 8),
      await o.payments.markFailed(code, ["initiated"], T0 + 9),
      await o.payments.get(code),
      await o.payments.insert(newPayment(2)),
      await o.payments.markExpired(newPayment(2).code, ["initiated"], T0 + 599_999, T0 + 10),
      await o.payments.markExpired(newPayment(2).code, [], T0 + 600_000, T0 + 11),
      await o.payments.markExpired(newPayment(2).code, ["initiated"], T0 + 600_000, T0 + 12),
      await o.payments.get(newPayment(2).code),
    ];
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite.filter((x) => typeof x === "boolean")).toEqual([
      true,
      true,
      false,
      false,
      true,
      false,
      false,
      true,
      false,
      false,
      false,
      true,
    ]);
  });

  it("initiatedExpiries lists initiated payments by window end, the code breaking ties; dueExpiries the due ones", async () => {
    const steps = async (o: Ops) => {
      for (const [n, expiresAtMs] of [
        [3, T0 + 5],
        [1, T0 + 5],
        [2, T0 + 1],
        [4, T0 + 9],
      ] as const) {
        await o.payments.insert(newPayment(n, { expiresAtMs }));
      }
      await o.payments.markFailed(newPayment(4).code, ["initiated"], T0);
      return {
        all: await o.payments.initiatedExpiries(),
        due: await o.payments.dueExpiries(T0 + 5, 10),
        first: await o.payments.dueExpiries(T0 + 9, 1),
        none: await o.payments.dueExpiries(T0, 10),
      };
    };
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite.all.map((r) => r.code)).toEqual([2, 1, 3].map((n) => newPayment(n).code));
    // Product 22's poll: only the due ones, earliest first, at most `limit`.
    expect(sqlite.due).toEqual(sqlite.all);
    expect(sqlite.first).toEqual(sqlite.all.slice(0, 1));
    expect(sqlite.none).toEqual([]);
  });
});

/** A small deterministic generator, so a failing history can be replayed from its seed. */
function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    s ^= s >>> 13;
    return (s >>> 0) % n;
  };
}

const AMOUNTS = [1, 99, 123_456, 10_000_000, Number.MAX_SAFE_INTEGER - 1];
const WINDOW_MINUTES = [1, 7, 61, 1_440, 44_640];

describe("product 22: connection-limit totals answer on PostgreSQL as on SQLite (bigint sums)", () => {
  it.each([1, 2])("random history %i across a day, week and month end", async (seed) => {
    const random = rng(seed);
    const live: string[] = [];
    let nowMs = T0;
    for (let n = 1; n <= 60; n += 1) {
      nowMs += [random(900), random(90_000), random(7_200_000)][random(3)]!;
      const roll = random(6);
      const at = nowMs;
      const picked = live.length > 0 ? live[random(live.length)]! : null;
      // Drawn once, outside the calls: the calls run twice (once per store) and must be the same.
      const fresh = newPayment(n, {
        terminalId: random(3) === 0 ? "T-2" : "T-1",
        amount: AMOUNTS[random(AMOUNTS.length)]!,
        createdAtMs: at,
      });
      const step = async (o: Ops) => {
        if (roll < 3 || picked === null) return (await o.payments.insert(fresh)).code;
        if (roll === 3) return await o.payments.markFailed(picked, ["initiated"], at);
        if (roll === 4) return await o.payments.markCaptured(picked, ["initiated"], CAPTURE, at);
        const p = (await o.payments.get(picked))!;
        return await o.refunds.applyToPayment(picked, ["captured"], p.amount, "voided", false, at);
      };
      const moved = await onBoth(both, step);
      expect(moved.pg).toEqual(moved.sqlite);
      if (typeof moved.sqlite === "string") live.push(moved.sqlite);
      const w = windows(nowMs + random(2_000), WINDOW_MINUTES[random(WINDOW_MINUTES.length)]!);
      const except = random(3) === 0 ? picked : null;
      const read = async (o: Ops) =>
        Promise.all(
          ["vpos-1", "vpos-2"].flatMap((c) => [o.payments.connectionUsage(c, w, except), o.payments.connectionUsageByScan(c, w, except)]),
        );
      const usage = await onBoth(both, read);
      expect(usage.pg, `seed ${seed} step ${n}`).toEqual(usage.sqlite);
      expect(usage.pg[0]).toEqual(usage.pg[1]);
      expect(usage.pg[2]).toEqual(usage.pg[3]);
    }
  });

  it("totals near 2^53 and past 2^55 are exact, then capped, with or without the payment being checked", async () => {
    const big = Number.MAX_SAFE_INTEGER - 1;
    const w = windows(T0 + 5_000, 60);
    const steps = async (o: Ops) => {
      const answers = [];
      for (let n = 1; n <= 5; n += 1) {
        await o.payments.insert(newPayment(n, { amount: big, createdAtMs: T0 + n * 500 }));
        answers.push(await o.payments.connectionUsage("vpos-1", w, null));
        answers.push(await o.payments.connectionUsage("vpos-1", w, newPayment(n).code));
        answers.push(await o.payments.connectionUsageByScan("vpos-1", w, newPayment(1).code));
      }
      return answers;
    };
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    const exact = (k: number) => BigInt(big) * BigInt(k);
    const all = (v: bigint) => ({ day: v, week: v, month: v, window: v });
    expect(sqlite[3]).toEqual(all(exact(2)));
    expect(sqlite[12]).toEqual(all(2n ** 55n));
    expect(sqlite[13]).toEqual(all(exact(4)));
    expect(sqlite[14]).toEqual(all(exact(4)));
  });

  it("rebuildConnectionUsage recomputes the same totals from the payments", async () => {
    const w = windows(T0 + 4 * 3_600_000, 600);
    const steps = async (o: Ops) => {
      for (let n = 1; n <= 8; n += 1) {
        await o.payments.insert(newPayment(n, { createdAtMs: T0 + n * 1_234_567, terminalId: n % 3 === 0 ? "T-2" : "T-1" }));
      }
      await o.payments.markFailed(newPayment(2).code, ["initiated"], T0);
      const before = await o.payments.connectionUsage("vpos-1", w, null);
      await o.payments.rebuildConnectionUsage();
      return [before, await o.payments.connectionUsage("vpos-1", w, null), await o.payments.connectionUsage("vpos-2", w, null)];
    };
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite[1]).toEqual(sqlite[0]);
  });
});
