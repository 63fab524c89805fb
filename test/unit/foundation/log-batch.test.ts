import { describe, expect, it } from "vitest";
import { batchedWriter, createJsonLog } from "../../../src/log";
import { Sensitive } from "../../../src/sensitive";
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

describe("issue 37: a JSON log line built by hand is the line JSON.stringify would write", () => {
  const expected = (line: string, level: string, msg: unknown, fields?: Record<string, unknown>) => {
    const at = (JSON.parse(line) as { time: string }).time;
    expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const replacer = (_k: string, v: unknown) => (v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v);
    return `${JSON.stringify({ time: at, level, tag: 't"ag', msg, ...fields }, replacer)}\n`;
  };
  const cases: Array<[unknown, Record<string, unknown> | undefined]> = [
    ["request", { method: "GET", route: "/v1/payment-links/:id", status: 200, ms: 0.25, traceId: "TR1", partnerId: null }],
    ['quote " and \\ and \n and \u2028 and \ud800', { s: "é\u0000\t", n: -0, nan: Number.NaN, inf: -Infinity, b: false }],
    ["skipped", { gone: undefined, kept: 1 }],
    ["head keys", { msg: "replaced", level: "x", extra: 1 }],
    ["digit keys", { b: 1, "1": "first", a: 2 }],
    ["objects", { nested: { a: [1, 2] }, secret: new Sensitive("s3cr3t") }],
    ["error", { error: new Error("boom") }],
    ["no fields", undefined],
    [undefined, { msg: undefined, x: 1 }],
  ];
  it.each(cases)("%s", (msg, fields) => {
    const lines: string[] = [];
    createJsonLog((line) => void lines.push(line), 't"ag').warn(msg as string, fields);
    expect(lines[0]).toBe(expected(lines[0]!, "warn", msg, fields));
  });
});
