import { describe, expect, it } from "vitest";
import { kept } from "../../../src/kept";

// src/kept.ts: the one bounded memo behind the kept texts of instants, links' addresses and
// callers' rate keys (issue 37).
describe("kept: a pure function's results, bounded", () => {
  it("makes each key's value once while it is kept", () => {
    const made: number[] = [];
    const square = kept(3, (n: number) => {
      made.push(n);
      return n * n;
    });
    expect([square(2), square(2), square(3), square(2)]).toEqual([4, 4, 9, 4]);
    expect(made).toEqual([2, 3]);
  });

  it("starts over past its bound and still answers every key rightly", () => {
    const made: number[] = [];
    const twice = kept(2, (n: number) => {
      made.push(n);
      return 2 * n;
    });
    expect([1, 2, 3, 1].map(twice)).toEqual([2, 4, 6, 2]);
    expect(made).toEqual([1, 2, 3, 1]);
  });

  it("keeps nothing when making throws", () => {
    let calls = 0;
    const strict = kept(4, (n: number) => {
      calls += 1;
      if (n < 0) throw new RangeError("negative");
      return n;
    });
    expect(() => strict(-1)).toThrow(RangeError);
    expect(() => strict(-1)).toThrow(RangeError);
    expect(calls).toBe(2);
  });
});
