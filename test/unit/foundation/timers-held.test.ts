import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock";
import { Timers } from "../../../src/timers";

// Product 22 (timer-poll.ts): the poll of a shared database hands a bank follow-up over only when
// this instance holds no timer of it, scheduled or running, so one question goes to the bank.

const noErrors = (kind: string, key: string, error: unknown) => {
  throw new Error(`timer ${kind}/${key} failed: ${String(error)}`);
};

describe("product 22: timers held per key, for counted kinds", () => {
  it("a scheduled timer is held until its handler has settled, then no more", async () => {
    const clock = new ManualClock(0);
    const t = new Timers(clock, noErrors);
    t.countHeld("bank");
    let release = () => {};
    const running = new Promise<void>((resolve) => {
      release = resolve;
    });
    t.on("bank", () => running);
    t.schedule("bank", "r1", 10);
    expect(t.holds("bank", "r1")).toBe(true);
    clock.advance(10);
    const run = t.runDue();
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.holds("bank", "r1")).toBe(true);
    release();
    await run;
    expect(t.holds("bank", "r1")).toBe(false);
  });

  it("two schedules of one key are two holds; a cancelled timer stops holding when it is dropped", async () => {
    const clock = new ManualClock(0);
    const t = new Timers(clock, noErrors);
    t.countHeld("bank");
    const fired: string[] = [];
    t.on("bank", async (key) => void fired.push(key));
    t.schedule("bank", "r1", 10);
    t.schedule("bank", "r1", 20);
    t.cancel("bank", "r1");
    expect(t.holds("bank", "r1")).toBe(true);
    clock.advance(20);
    await t.runDue();
    expect(fired).toEqual([]);
    expect(t.holds("bank", "r1")).toBe(false);
  });

  it("a handler that schedules its next question keeps the key held", async () => {
    const clock = new ManualClock(0);
    const t = new Timers(clock, noErrors);
    t.countHeld("bank");
    t.on("bank", async (key) => t.schedule("bank", key, 1_000));
    t.schedule("bank", "r1", 10);
    clock.advance(10);
    await t.runDue();
    expect(t.holds("bank", "r1")).toBe(true);
  });

  it("kinds not counted are never reported held (the big ones keep no count per key)", () => {
    const t = new Timers(new ManualClock(0), noErrors);
    t.schedule("expiry", "p1", 10);
    expect(t.holds("expiry", "p1")).toBe(false);
  });
});
