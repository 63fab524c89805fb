import { afterEach, describe, expect, it } from "vitest";
import { HOUR_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { OTHER_KEY } from "../support/fixtures";
import { capture } from "../support/kasa-process";
import { addPanelUser, codeOf, panelClient } from "../support/panel-client";

// Product 18 payouts page: the partner's batches (product 9) with the captures they pay.

let h: Harness;
afterEach(async () => h?.close());

describe("product 18 panel payouts", () => {
  it("lists the partner's batch with its value day and payments; another partner's batch is 404", async () => {
    h = await harness();
    const mine = await capture(h);
    await capture(h, { key: OTHER_KEY, terminalId: "T-OTHER" });
    await h.advance(12 * HOUR_MS); // 00:00 Istanbul: day end settles and pays out
    const batches = await h.store.q.operator.payoutBatches({ partnerId: null, status: null, limit: 10 });
    const own = batches.find((b) => b.partnerId === "ptn_test")!;
    const theirs = batches.find((b) => b.partnerId === "ptn_other")!;
    await addPanelUser(h, "viewer@shop.example", "viewer");
    const c = panelClient(h);
    await c.login("viewer@shop.example");
    const list = await c.get("/panel/payouts");
    expect(list.text).toContain(own.id);
    expect(list.text).not.toContain(theirs.id);
    const detail = await c.get(`/panel/payouts/${own.id}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain(mine);
    const other = await c.get(`/panel/payouts/${theirs.id}`);
    expect([other.status, codeOf(other.text)]).toEqual([404, "not_found"]);
  });
});
