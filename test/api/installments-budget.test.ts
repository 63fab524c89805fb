import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { OTHER_KEY, TEST_KEY, TEST_KEY_2 } from "../support/fixtures";

// Interface 8 "POST /v1/installment-options: per-minute limit per partner", product 12
// `installments.partner` 120/min; interface 4.8 / 7.2: its 429 carries no Retry-After.

let h: Harness;
afterEach(async () => h?.close());

const OPTIONS = "/v1/installment-options";
const OVERVIEW = "/v1/installment-options/overview";
const BODY = { bin: "40000011", terminalId: "T-1" };
const LIMIT = 120;

/** Spends the partner's whole budget, alternating its two keys (they share it). */
async function spendBudget(): Promise<void> {
  for (let i = 0; i < LIMIT; i += 1) {
    const r = await h.post(OPTIONS, BODY, { key: i % 2 === 0 ? TEST_KEY : TEST_KEY_2 });
    expect(r.status, `request ${i + 1}`).toBe(200);
  }
}

describe("product 12 installments.partner budget: 120 per minute per partner, 429 without Retry-After", () => {
  it("admits 120 requests from the partner's keys together, refuses the 121st", async () => {
    h = await harness({ limits: "default" });
    await spendBudget();
    for (const key of [TEST_KEY, TEST_KEY_2]) {
      const r = await h.post(OPTIONS, BODY, { key });
      expect([r.status, r.json.error.code]).toEqual([429, "rate_limited"]);
      expect(r.headers.has("retry-after")).toBe(false);
    }
  });

  it("the overview draws on the same budget, and is refused without Retry-After too", async () => {
    h = await harness({ limits: "default" });
    await spendBudget();
    const r = await h.post(OVERVIEW, { terminalId: "T-1" });
    expect(r.status).toBe(429);
    expect(r.headers.has("retry-after")).toBe(false);
  });

  it("429 comes before body validation (interface 8: before reading anything)", async () => {
    h = await harness({ limits: "default" });
    await spendBudget();
    const r = await h.post(OPTIONS, { bin: "nope" });
    expect(r.status).toBe(429);
  });

  it("another partner's budget is its own", async () => {
    h = await harness({ limits: "default" });
    await spendBudget();
    const r = await h.post(OPTIONS, { bin: "40000011", terminalId: "T-OTHER" }, { key: OTHER_KEY });
    expect(r.status).toBe(200);
  });

  it("the window rolls with the service clock (product 16 on 8)", async () => {
    h = await harness({ limits: "default" });
    await spendBudget();
    expect((await h.post(OPTIONS, BODY)).status).toBe(429);
    await h.advance(MINUTE_MS);
    expect((await h.post(OPTIONS, BODY)).status).toBe(200);
  });
});
