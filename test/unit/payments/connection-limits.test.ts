import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exceededConnectionLimit } from "../../../src/domain/payments/connection-limits";
import { openSqliteStore as openStore } from "../../../src/store/sqlite/sqlite-store";
import type { SqliteStore as Store } from "../../../src/store/sqlite/sqlite-store";
import type { ConnectionRow } from "../../../src/store/rows";
import type { PaymentStatus } from "../../../src/store/rows-money";
import { connectionRow, partnerRow, terminalRow } from "../../support/catalog-rows";

// Product 4 limit usage by window, directly against the store (the API tests cover the codes).

let store: Store;
let n = 0;

const CONNECTION: ConnectionRow = connectionRow("vpos-1");

const at = (iso: string): number => Date.parse(iso);

async function payment(createdAtMs: number, amount: number, status: PaymentStatus = "initiated", connectionId = "vpos-1"): Promise<string> {
  const code = `pay_${String(++n).padStart(20, "0")}`;
  await store.write(async (tx) => {
    await tx.payments.insert({
      code,
      partnerId: "ptn_t",
      terminalId: "T-1",
      connectionId,
      partnerTxCode: code,
      channel: "api",
      linkId: null,
      amount,
      principal: amount,
      currency: "TRY",
      installment: 1,
      description: null,
      returnUrl: null,
      paymentRef: `ref_${code}`,
      expiresAtMs: createdAtMs + 1,
      createdAtMs,
    });
    if (status !== "initiated") await tx.fixtures.patchPayment(code, { status });
  });
  return code;
}

beforeEach(async () => {
  store = await openStore(":memory:");
  await store.write(async (tx) => {
    await tx.catalog.upsertPsp({ id: "psp-1", active: true });
    await tx.catalog.upsertConnection(CONNECTION);
    await tx.catalog.upsertConnection({ ...CONNECTION, id: "vpos-2" });
    await tx.partners.upsert(partnerRow("ptn_t", 0, { name: "t" }));
    await tx.catalog.upsertTerminal(terminalRow({ id: "T-1", partnerId: "ptn_t", connectionId: "vpos-1" }));
  });
});
afterEach(async () => store.close());

const check = async (limits: Partial<ConnectionRow>, amount: number, nowMs: number, except: string | null = null) =>
  await exceededConnectionLimit(store.q, { ...CONNECTION, ...limits }, amount, nowMs, except);

describe("product 4 connection limit usage", () => {
  it("no limits: never exceeded, no query needed", async () => {
    expect(await check({}, Number.MAX_SAFE_INTEGER, at("2026-11-20T09:00:00Z"))).toBeNull();
  });

  it("per transaction: amount above perTxMax; equal is fine", async () => {
    expect(await check({ perTxMax: 100 }, 101, 0)).toBe("pos_per_tx_limit_exceeded");
    expect(await check({ perTxMax: 100 }, 100, 0)).toBeNull();
  });

  it("per transaction is checked first, then daily, weekly, monthly, time window", async () => {
    await payment(at("2026-11-20T08:00:00Z"), 1_000);
    const all = { perTxMax: 10, dailyMax: 10, weeklyMax: 10, monthlyMax: 10, windowMinutes: 60, windowMax: 10 };
    const now = at("2026-11-20T09:00:00Z");
    expect(await check(all, 11, now)).toBe("pos_per_tx_limit_exceeded");
    expect(await check({ ...all, perTxMax: null }, 11, now)).toBe("pos_daily_limit_exceeded");
    expect(await check({ ...all, perTxMax: null, dailyMax: null }, 11, now)).toBe("pos_weekly_limit_exceeded");
    expect(await check({ ...all, perTxMax: null, dailyMax: null, weeklyMax: null }, 11, now)).toBe("pos_monthly_limit_exceeded");
    expect(await check({ perTxMax: null, windowMinutes: 60, windowMax: 10 }, 11, now)).toBe("pos_time_window_limit_exceeded");
  });

  it("the Istanbul day runs from 21:00 UTC to 21:00 UTC", async () => {
    await payment(at("2026-11-19T21:00:00Z"), 500); // 00:00 on the 20th in Istanbul
    await payment(at("2026-11-19T20:59:59.999Z"), 700); // still the 19th
    expect(await check({ dailyMax: 1_000 }, 500, at("2026-11-20T20:59:59.999Z"))).toBeNull();
    expect(await check({ dailyMax: 1_000 }, 501, at("2026-11-20T20:59:59.999Z"))).toBe("pos_daily_limit_exceeded");
  });

  it("the ISO week spans a month boundary: Monday 30 Nov to Sunday 6 Dec 2026", async () => {
    await payment(at("2026-11-29T21:00:00Z"), 800); // Monday 30 Nov, 00:00 Istanbul
    expect(await check({ weeklyMax: 1_000, monthlyMax: 900 }, 200, at("2026-12-06T20:00:00Z"))).toBeNull();
    expect(await check({ weeklyMax: 1_000 }, 201, at("2026-12-06T20:00:00Z"))).toBe("pos_weekly_limit_exceeded");
    expect(await check({ weeklyMax: 1_000 }, 1_000, at("2026-12-06T21:00:00Z"))).toBeNull(); // next Monday
  });

  it("the rolling window counts payments created strictly after now − window", async () => {
    const t = at("2026-11-20T09:00:00Z");
    await payment(t, 600);
    const limits = { windowMinutes: 10, windowMax: 1_000 };
    expect(await check(limits, 401, t + 10 * 60_000 - 1)).toBe("pos_time_window_limit_exceeded");
    expect(await check(limits, 1_000, t + 10 * 60_000)).toBeNull();
  });

  it.each([
    ["initiated", true],
    ["captured", true],
    ["failed", false],
    ["expired", false],
    ["voided", false],
    ["refunded", false],
  ] as const)("a %s payment counts: %s", async (status, counts) => {
    await payment(at("2026-11-20T08:00:00Z"), 600, status);
    expect(await check({ dailyMax: 1_000 }, 401, at("2026-11-20T09:00:00Z"))).toBe(counts ? "pos_daily_limit_exceeded" : null);
  });

  it("only the connection's own payments count, and the payment being checked is left out", async () => {
    await payment(at("2026-11-20T08:00:00Z"), 900, "initiated", "vpos-2");
    const self = await payment(at("2026-11-20T08:00:00Z"), 900);
    const now = at("2026-11-20T09:00:00Z");
    expect(await check({ dailyMax: 1_000 }, 900, now)).toBe("pos_daily_limit_exceeded");
    expect(await check({ dailyMax: 1_000 }, 900, now, self)).toBeNull();
  });
});
