import { describe, expect, it } from "vitest";
import { batchedWriter } from "../../../src/log";
import { createIds } from "../../../src/ids";
import { ManualClock } from "../../../src/clock";

// Issue 37: the JSON log writes once per event-loop turn, and trace ids come from one random read.

describe("issue 37: the JSON log's lines go out together, once per turn, in order", () => {
  it("lines of one turn are one write; the next turn's are the next; flush writes at once", async () => {
    const writes: string[] = [];
    const out = batchedWriter((chunk) => writes.push(chunk));
    out.write("a\n");
    out.write("b\n");
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(["a\nb\n"]);
    out.write("c\n");
    out.flush();
    expect(writes).toEqual(["a\nb\n", "c\n"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(2);
  });
});

describe("issue 37: base32 ids from one random read stay uniform and well formed", () => {
  it("16 characters of the Crockford alphabet, each of the 32 about equally often", () => {
    const ids = createIds(new ManualClock(0));
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const id = ids.traceId();
      expect(id).toMatch(/^tr_[0-9abcdefghjkmnpqrstvwxyz]{16}$/);
      for (const ch of id.slice(3)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    }
    expect(counts.size).toBe(32);
    // 64,000 characters: 2,000 expected per symbol; a biased mapping would miss by far more than 15%.
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(300);
  });
});
