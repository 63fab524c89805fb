import { afterEach, describe, expect, it } from "vitest";
import { dayendCommand } from "../../cli/commands/dayend";
import type { ManualClock } from "../../src/clock";
import { formBatch } from "../../src/domain/settlement/payouts";
import { DAY_MS, HOUR_MS } from "../../src/limits";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { runHuman, runJson } from "../cli/cli-run";
import { harness, T0, type Harness } from "../support/harness";
import { capture, kasaProcess, type KasaProcess } from "../support/kasa-process";
import { MONEY_SEED } from "../support/money-fixtures";
import { useRestartRig } from "../support/restart-rig";

// product 13, 9: the sandbox clock moved over several midnights runs each day end exactly once,
// also across restarts (the dayends rows and the stored clock offset are the truth); batches a
// stopped process formed but did not pay are paid at the next start; `kasa dayend`.

const TO_MIDNIGHT = 12 * HOUR_MS;

let path: string;
let clock: ManualClock;
const rig = useRestartRig<KasaProcess>("kasa-dayend-", (files) => ({ path, clock } = files));
let h: Harness | undefined;

// Registered after the rig, so it runs before the rig closes the processes (hooks unwind as a stack).
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const start = async (mode: "serve" | "sandbox" = "serve", seed = false): Promise<KasaProcess> =>
  rig.track(await kasaProcess({ path, clock, mode, seed: seed ? MONEY_SEED : undefined }));
const stop = rig.stop;

type Q = { store: KasaProcess["store"] };
const dayends = async (k: Q) => await k.store.q.fixtures.dayEnds();
const batchDays = async (k: Q) =>
  (await k.store.q.operator.payoutBatches({ partnerId: "ptn_test", status: null, limit: 100 })).map((b) => b.day).reverse();
const paidOutEvents = async (k: Q) =>
  (await k.store.q.webhooks.list({ partnerId: "ptn_test", status: null, limit: 1000 })).filter((d) => d.type === "payout.paid_out").length;
const moveSandbox = (k: { post: KasaProcess["post"] }, seconds: number) => k.post("/sandbox/clock", { advanceSeconds: seconds });

describe("product 13: the sandbox clock runs each day end exactly once", () => {
  it("one move over three midnights runs the three day ends in order; a later move runs none again", async () => {
    h = await harness({ config: { mode: "sandbox" } });
    await capture(h);
    const moved = await h.post("/sandbox/clock", { advanceSeconds: (3 * DAY_MS) / 1000 });
    expect(moved.json.now).toBe("2026-11-23T09:00:00.000Z");
    expect(await dayends(h)).toEqual(["2026-11-20", "2026-11-21", "2026-11-22"]);
    expect(await batchDays(h)).toEqual(["2026-11-21"]);
    await h.post("/sandbox/clock", { advanceSeconds: 3600 });
    expect(await dayends(h)).toHaveLength(3);
  });

  it("a capture each day, moves and restarts in between: one day end and one batch per day, never twice", async () => {
    let k = await start("sandbox", true);
    await capture(k);
    await moveSandbox(k, DAY_MS / 1000);
    await capture(k);
    await moveSandbox(k, DAY_MS / 1000);
    await stop(k);

    k = await start("sandbox");
    await k.runDue();
    expect(await dayends(k)).toEqual(["2026-11-20", "2026-11-21"]);
    await capture(k);
    await moveSandbox(k, DAY_MS / 1000);
    await stop(k);

    k = await start("sandbox");
    await k.runDue();
    await moveSandbox(k, 60);
    expect(await dayends(k)).toEqual(["2026-11-20", "2026-11-21", "2026-11-22"]);
    expect(await batchDays(k)).toEqual(["2026-11-21", "2026-11-22", "2026-11-23"]);
    expect(await paidOutEvents(k)).toBe(3);
  });

  it("midnights passed while the server was down are caught up at start, each once", async () => {
    let k = await start("serve", true);
    const pay = await capture(k);
    await stop(k);
    clock.advance(3 * DAY_MS);
    k = await start();
    await k.runDue();
    expect(await dayends(k)).toEqual(["2026-11-20", "2026-11-21", "2026-11-22"]);
    expect((await k.store.q.payments.get(pay))?.settledDay).toBe("2026-11-20");
    expect(await batchDays(k)).toEqual(["2026-11-21"]);
    await stop(k);
    k = await start();
    await k.runDue();
    expect(await dayends(k)).toHaveLength(3);
    expect(await paidOutEvents(k)).toBe(1);
  });
});

describe("product 9: a payout batch formed by a stopped process is paid at the next start, once", () => {
  it("the day end's unit committed, the bank was never asked: the next start pays it", async () => {
    let k = await start("serve", true);
    await capture(k);
    await stop(k);
    clock.advance(TO_MIDNIGHT);
    k = await start();
    // What runDayEnd's unit leaves behind when the process stops before the payout call.
    const nowMs = clock.nowMs();
    await k.store.write(async (tx) => {
      await tx.settlement.claimDay("2026-11-20", nowMs);
      await tx.settlement.settle("2026-11-20", nowMs);
      for (const partnerId of await tx.settlement.partnersWithDue("2026-11-21", nowMs))
        await formBatch(tx, k.deps, partnerId, "2026-11-21", nowMs, nowMs);
    });
    await stop(k);
    const plain = await openStore(path);
    expect(await dayends({ store: plain })).toEqual(["2026-11-20"]);
    await plain.close();

    k = await start();
    await k.runDue();
    const [batch] = await k.store.q.operator.payoutBatches({ partnerId: "ptn_test", status: null, limit: 10 });
    expect(batch?.status).toBe("paid_out");
    expect(await paidOutEvents(k)).toBe(1);
    await stop(k);
    k = await start();
    await k.advance(HOUR_MS);
    expect(await paidOutEvents(k)).toBe(1);
  });
});

describe("product 14: kasa dayend", () => {
  it("runs the due day ends by the database's sandbox clock, prints them, and finds nothing left the second time", async () => {
    const k = await start("serve", true);
    const pay = await capture(k);
    const net = (await k.store.q.payments.get(pay))!.netToPartner;
    await stop(k);
    const store = await openStore(path);
    // The CLI reads the sandbox clock as the system clock plus the stored offset: put it at 01:00 next day.
    await store.write(async (tx) => await tx.meta.set("sandbox.clock_offset_ms", String(T0 + TO_MIDNIGHT + HOUR_MS - Date.now())));
    await store.close();

    const first = await runJson<Array<Record<string, unknown>>>(dayendCommand, ["--db", path]);
    expect(first).toEqual([
      {
        day: "2026-11-20",
        ran: true,
        settled: 1,
        payouts: [expect.objectContaining({ partnerId: "ptn_test", day: "2026-11-21", amount: net, status: "paid_out" })],
      },
    ]);
    expect(await runJson(dayendCommand, ["--db", path])).toEqual([]);
    expect(await runHuman(dayendCommand, ["--db", path])).toBe("nothing to do: every day before 2026-11-21 has had its day end");
  });
});
