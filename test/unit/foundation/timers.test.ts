import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock";
import { TimerHeap } from "../../../src/timer-heap";
import { Timers } from "../../../src/timers";

const noErrors = (kind: string, key: string, error: unknown) => {
  throw new Error(`timer ${kind}/${key} failed: ${String(error)}`);
};

describe("issue 2 timer wheel", () => {
  it("hands out due timers in due order, never early", () => {
    const t = new Timers(new ManualClock(0), noErrors);
    t.schedule("k", "c", 300);
    t.schedule("k", "a", 100);
    t.schedule("k", "b", 200);
    expect(t.takeDue(99)).toEqual([]);
    expect(t.takeDue(200).map((x) => x.key)).toEqual(["a", "b"]);
    expect(t.takeDue(10_000).map((x) => x.key)).toEqual(["c"]);
  });

  it("timers of the same millisecond keep their scheduling order", () => {
    const t = new Timers(new ManualClock(0), noErrors);
    for (const key of ["x", "y", "z", "w"]) t.schedule("k", key, 50);
    expect(t.takeDue(50).map((x) => x.key)).toEqual(["x", "y", "z", "w"]);
  });

  it("cancel drops earlier schedules of that key; a later schedule counts again", () => {
    const t = new Timers(new ManualClock(0), noErrors);
    t.schedule("k", "a", 10);
    t.schedule("k", "b", 10);
    t.cancel("k", "a");
    t.schedule("k", "a", 20);
    expect(t.takeDue(100).map((x) => `${x.key}@${x.dueAtMs}`)).toEqual(["b@10", "a@20"]);
  });

  it("runDue runs handlers of everything due, including timers they schedule as due", async () => {
    const clock = new ManualClock(1000);
    const t = new Timers(clock, noErrors);
    const fired: string[] = [];
    t.on("k", async (key) => {
      fired.push(key);
      if (key === "first") t.schedule("k", "chained", 1000);
    });
    t.schedule("k", "first", 1000);
    t.schedule("k", "later", 2000);
    await t.runDue();
    expect(fired).toEqual(["first", "chained"]);
    clock.set(2000);
    await t.runDue();
    expect(fired).toEqual(["first", "chained", "later"]);
  });

  it("a failing handler is reported and does not stop the others", async () => {
    const errors: string[] = [];
    const t = new Timers(new ManualClock(10), (_k, key) => void errors.push(key));
    const fired: string[] = [];
    t.on("k", async (key) => {
      if (key === "bad") throw new Error("nope");
      fired.push(key);
    });
    t.schedule("k", "bad", 1);
    t.schedule("k", "good", 2);
    await t.runDue();
    expect(errors).toEqual(["bad"]);
    expect(fired).toEqual(["good"]);
  });

  it("rebuilds from database sources", async () => {
    const t = new Timers(new ManualClock(0), noErrors);
    await t.rebuild([
      { kind: "a", pending: () => [{ key: "1", dueAtMs: 5 }] },
      { kind: "b", pending: async () => [{ key: "2", dueAtMs: 3 }] },
    ]);
    expect(t.size).toBe(2);
    expect(t.takeDue(10).map((x) => x.kind)).toEqual(["b", "a"]);
  });

  it("holds 1e6 timers and hands them out sorted", () => {
    const heap = new TimerHeap();
    let x = 123456789;
    for (let i = 0; i < 1_000_000; i++) {
      x = (x * 1103515245 + 12345) % 2147483648; // deterministic pseudo-random due times
      heap.push(x % 10_000_000, i, "k", `key${i}`);
    }
    expect(heap.size).toBe(1_000_000);
    let last = -1;
    let lastSeq = -1;
    let outOfOrder = 0;
    // One assertion at the end: a million expect() calls cost more than the heap (a flake under load).
    for (let i = 0; i < 1_000_000; i++) {
      const t = heap.pop()!;
      if (!(t.dueAtMs > last || (t.dueAtMs === last && t.seq > lastSeq))) outOfOrder++;
      last = t.dueAtMs;
      lastSeq = t.seq;
    }
    expect(outOfOrder).toBe(0);
    expect(heap.pop()).toBeUndefined();
  });
});
