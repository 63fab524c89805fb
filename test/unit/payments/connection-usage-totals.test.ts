import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../../src/limits";
import { startOfIstanbulDayMs, startOfIstanbulMonthMs, startOfIstanbulWeekMs } from "../../../src/domain/checks/istanbul-time";
import { openSqliteStore as openStore } from "../../../src/store/sqlite/sqlite-store";
import type { SqliteStore as Store } from "../../../src/store/sqlite/sqlite-store";
import { downgradeToVersion1 } from "../../../src/store/sqlite/inspect";
import type { ConnectionRow, UsageWindows } from "../../../src/store/rows";
import { connectionRow, partnerRow, terminalRow } from "../../support/catalog-rows";

// Issue 17: the running totals answer exactly what summing the payments answers (product 4), at
// every instant of random histories that cross Istanbul day, ISO week and month boundaries, with
// failures, expiries, captures, voids and full refunds, and for windows of every size.

let store: Store;

const CONNECTION: ConnectionRow = connectionRow("vpos-1");

/** A small deterministic generator, so a failing history can be replayed from its seed. */
function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    s ^= s >>> 13;
    return (s >>> 0) % n;
  };
}

async function seedCatalog(s: Store): Promise<void> {
  await s.write(async (tx) => {
    await tx.catalog.upsertPsp({ id: "psp-1", active: true });
    await tx.catalog.upsertConnection(CONNECTION);
    await tx.catalog.upsertConnection({ ...CONNECTION, id: "vpos-2" });
    await tx.partners.upsert(partnerRow("ptn_t", 0, { name: "t" }));
    for (const [id, connectionId] of [
      ["T-1", "vpos-1"],
      ["T-2", "vpos-2"],
    ] as const) {
      await tx.catalog.upsertTerminal(terminalRow({ id, partnerId: "ptn_t", connectionId }));
    }
  });
}

beforeEach(async () => {
  store = await openStore(":memory:");
  await seedCatalog(store);
});
afterEach(async () => store.close());

const windows = (nowMs: number, windowMinutes: number): UsageWindows => ({
  dayFromMs: startOfIstanbulDayMs(nowMs),
  weekFromMs: startOfIstanbulWeekMs(nowMs),
  monthFromMs: startOfIstanbulMonthMs(nowMs),
  windowAfterMs: nowMs - windowMinutes * MINUTE_MS,
});

/** Sunday 2026-11-29 18:00 Istanbul: the history crosses a day, an ISO week and a month end. */
const START_MS = Date.parse("2026-11-29T15:00:00.000Z");
const AMOUNTS = [1, 99, 1_000, 123_456, 10_000_000, Number.MAX_SAFE_INTEGER - 1];
const WINDOW_MINUTES = [1, 7, 60, 61, 1_440, 44_640];

type Live = { code: string; connectionId: string; status: "initiated" | "captured" };

async function step(random: (n: number) => number, nowMs: number, live: Live[], n: number): Promise<void> {
  const roll = random(10);
  if (roll < 5 || live.length === 0) {
    const code = `pay_${String(n).padStart(20, "0")}`;
    const connectionId = random(4) === 0 ? "vpos-2" : "vpos-1";
    await store.write(
      async (tx) =>
        await tx.payments.insert({
          code,
          partnerId: "ptn_t",
          terminalId: connectionId === "vpos-1" ? "T-1" : "T-2",
          connectionId,
          partnerTxCode: code,
          channel: "api",
          linkId: null,
          amount: AMOUNTS[random(AMOUNTS.length)]!,
          principal: 1,
          currency: "TRY",
          installment: 1,
          description: null,
          returnUrl: null,
          paymentRef: `ref_${code}`,
          expiresAtMs: nowMs,
          createdAtMs: nowMs,
        }),
    );
    live.push({ code, connectionId, status: "initiated" });
    return;
  }
  const index = random(live.length);
  const p = live[index]!;
  const wasInitiated = p.status === "initiated";
  await store.write(async (tx) => {
    if (wasInitiated && roll === 5) return await tx.payments.markFailed(p.code, ["initiated"], nowMs);
    if (wasInitiated && roll === 6) return await tx.payments.markExpired(p.code, ["initiated"], nowMs, nowMs);
    if (wasInitiated) {
      return await tx.payments.markCaptured(
        p.code,
        ["initiated"],
        {
          commissionAmount: 0,
          netToPartner: 0,
          expectedValueDate: "2026-12-01",
          bankReference: "b",
          authCode: "a",
        },
        nowMs,
      );
    }
    const amount = (await tx.payments.get(p.code))!.amount;
    return await tx.refunds.applyToPayment(p.code, ["captured"], amount, roll % 2 === 0 ? "voided" : "refunded", false, nowMs);
  });
  // Captured payments stay live (a void or a full refund may follow); every other move ends it.
  if (wasInitiated && roll > 6) p.status = "captured";
  else live.splice(index, 1);
}

describe("issue 17: connection-limit totals equal the sum over the payments (product 4)", () => {
  it.each([1, 2, 3, 4, 5, 6])("random history %i", async (seed) => {
    const random = rng(seed);
    const live: Live[] = [];
    let nowMs = START_MS + random(1_000);
    for (let n = 1; n <= 400; n += 1) {
      // Mostly sub-second steps (payments in the same second and minute), sometimes hours.
      nowMs += [random(900), random(90_000), random(7_200_000)][random(3)]!;
      await step(random, nowMs, live, n);
      const minutes = WINDOW_MINUTES[random(WINDOW_MINUTES.length)]!;
      const except = random(3) === 0 && live.length > 0 ? live[random(live.length)]!.code : null;
      for (const connectionId of ["vpos-1", "vpos-2"]) {
        const w = windows(nowMs + random(2_000), minutes);
        expect(await store.q.payments.connectionUsage(connectionId, w, except), `seed ${seed} step ${n}`).toEqual(
          await store.q.payments.connectionUsageByScan(connectionId, w, except),
        );
      }
    }
  });

  it("a database made before the totals existed gets them rebuilt from its payments", async () => {
    const random = rng(42);
    const live: Live[] = [];
    let nowMs = START_MS;
    for (let n = 1; n <= 100; n += 1) {
      nowMs += random(3_600_000);
      await step(random, nowMs, live, n);
    }
    const w = windows(nowMs, 600);
    const before = await store.q.payments.connectionUsage("vpos-1", w, null);
    await store.write(async (tx) => await tx.payments.rebuildConnectionUsage());
    expect(await store.q.payments.connectionUsage("vpos-1", w, null)).toEqual(before);
    expect(before).toEqual(await store.q.payments.connectionUsageByScan("vpos-1", w, null));
  });
});

describe("issue 17: an inserted payment is answered without reading it back", () => {
  it("the row insert answers equals the row stored", async () => {
    const row = await store.write(
      async (tx) =>
        await tx.payments.insert({
          code: "pay_00000000000000000001",
          partnerId: "ptn_t",
          terminalId: "T-1",
          connectionId: "vpos-1",
          partnerTxCode: "x",
          channel: "api",
          linkId: null,
          amount: 5,
          principal: 5,
          currency: "TRY",
          installment: 1,
          description: "d",
          returnUrl: "https://shop.example/r",
          paymentRef: "ref_x",
          expiresAtMs: START_MS + 1,
          createdAtMs: START_MS,
        }),
    );
    expect(row).toEqual(await store.q.payments.get("pay_00000000000000000001"));
  });
});

describe("issue 17: a version-1 database (before the totals) opens with its totals filled", () => {
  it("migrate rebuilds the totals from the payments already there", async () => {
    const file = `${mkdtempSync(join(tmpdir(), "kasa-usage-"))}/kasa.db`;
    await store.close();
    store = await openStore(file);
    await seedCatalog(store);
    const random = rng(7);
    for (let n = 1; n <= 50; n += 1) await step(random, START_MS + n * 60_000, [], n);
    // What a version-1 file looks like: no totals table, no triggers.
    downgradeToVersion1(store);
    await store.close();
    store = await openStore(file);
    const w = windows(START_MS + 50 * 60_000, 20);
    expect(await store.q.payments.connectionUsage("vpos-1", w, null)).toEqual(
      await store.q.payments.connectionUsageByScan("vpos-1", w, null),
    );
    expect((await store.q.payments.connectionUsage("vpos-1", w, null)).month).toBeGreaterThan(0n);
  });
});
