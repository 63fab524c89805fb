import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock";
import { Timers } from "../../../src/timers";

// Issue 11: runs wait for in-flight handlers through one settle signal (not Promise.race over
// every in-flight promise), and the real-time run does not wait at all.

const noErrors = (kind: string, key: string, error: unknown) => {
  throw new Error(`timer ${kind}/${key} failed: ${String(error)}`);
};

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("issue 11 timer wheel under load", () => {
  it("runDue resolves only after slow handlers and the due timers they schedule have run", async () => {
    const t = new Timers(new ManualClock(1000), noErrors);
    const gates = Array.from({ length: 300 }, deferred);
    const ran: string[] = [];
    t.on("slow", async (key) => {
      await gates[Number(key)]!.promise;
      t.schedule("follow", key, 1000);
    });
    t.on("follow", async (key) => void ran.push(key));
    for (const i of gates.keys()) t.schedule("slow", String(i), 1000);
    let done = false;
    const run = t.runDue().then(() => (done = true));
    await tick();
    expect(done).toBe(false);
    for (const g of gates.slice().reverse()) g.resolve();
    await run;
    expect(ran).toHaveLength(300);
  });

  it("in real time a slow handler does not hold the wheel; its follow-up arms it again", async () => {
    const t = new Timers(new ManualClock(1000), noErrors);
    const gate = deferred();
    const ran: string[] = [];
    t.on("slow", async () => {
      await gate.promise;
      t.schedule("k", "after-slow", 1000);
    });
    t.on("k", async (key) => void ran.push(key));
    t.start();
    t.schedule("slow", "s", 1000);
    await tick();
    t.schedule("k", "meanwhile", 1000);
    await tick();
    expect(ran).toEqual(["meanwhile"]);
    gate.resolve();
    await tick();
    expect(ran).toEqual(["meanwhile", "after-slow"]);
    await t.stop();
  });
});
