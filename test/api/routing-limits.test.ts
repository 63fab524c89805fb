import { afterEach, describe, expect, it } from "vitest";
import { harness, type Harness } from "../support/harness";
import { addPanelUser, panelClient } from "../support/panel-client";
import { createPayment, handOff, pay, paymentRow } from "./payments-flow";
import { attemptsOf, CARDS, routingSeed, type WorldOptions } from "./routing-world";

// docs/routing.md, Limits and Before the card (product 25): a router's payment counts against the
// first member in fallback order with room and moves to the serving member at 3D start in the same
// unit; installment options and link counts come from the members.

let h: Harness;
afterEach(async () => h?.close());

const world = async (o: WorldOptions) => {
  h = await harness({ seed: routingSeed(o) });
};
const daily = (max: number) => ({ limits: { dailyMax: max } });

describe("product 25: connection limits at create on a router", () => {
  it("each payment counts against the first member in fallback order with room; none with room is the 422 of the fallback-first member's limit", async () => {
    await world({ connections: { "vpos-A": daily(15_000), "vpos-B": daily(15_000), "vpos-C": daily(15_000) } });
    const placed: string[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await createPayment(h, { terminalId: "T-R" });
      expect(c.status, c.text).toBe(201);
      placed.push((await paymentRow(h, c.json.paymentCode)).connectionId);
    }
    expect(placed).toEqual(["vpos-A", "vpos-B", "vpos-C"]);
    const refused = await createPayment(h, { terminalId: "T-R" });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe("pos_daily_limit_exceeded");
  });

  it("the 422 names the fallback-first member's limit, whatever the others' are", async () => {
    await world({
      connections: { "vpos-A": { limits: { perTxMax: 5_000 } }, "vpos-B": daily(5_000), "vpos-C": { limits: { monthlyMax: 5_000 } } },
      routing: { fallback: ["T-B", "T-A", "T-C"] },
    });
    const refused = await createPayment(h, { terminalId: "T-R" });
    expect(refused.json.error.code).toBe("pos_daily_limit_exceeded");
  });

  it("an inactive member counts for nothing: neither room nor counts", async () => {
    await world({ terminals: { "T-C": { active: false } }, connections: { "vpos-A": daily(5_000), "vpos-B": daily(5_000) } });
    expect((await createPayment(h, { terminalId: "T-R" })).json.error.code).toBe("pos_daily_limit_exceeded");
    expect((await createPayment(h, { terminalId: "T-R", amount: 1_000, installment: 9 })).json.error.code).toBe("installment_not_allowed");
  });

  it("at 3D start the usage moves to the serving member in the same unit: the room it left is free again", async () => {
    await world({ routing: { onUsInstallments: true }, connections: { "vpos-A": daily(10_000) } });
    const c = await createPayment(h, { terminalId: "T-R", installment: 3 });
    expect((await paymentRow(h, c.json.paymentCode)).connectionId).toBe("vpos-A");
    const { done } = await pay(h, c.json.paymentRef, CARDS.world);
    expect(done.leftTo).toContain("status=captured");
    expect((await paymentRow(h, c.json.paymentCode)).connectionId).toBe("vpos-B");
    const next = await createPayment(h, { terminalId: "T-R" });
    expect((await paymentRow(h, next.json.paymentCode)).connectionId).toBe("vpos-A");
  });

  it("the payment's own provisional usage is never counted twice: a payment that fills a connection is served there", async () => {
    await world({ connections: { "vpos-A": daily(10_000) } });
    const c = await createPayment(h, { terminalId: "T-R" });
    await pay(h, c.json.paymentRef, CARDS.bonus);
    expect((await attemptsOf(h, c.json.paymentCode))[0]).toMatchObject({ status: "captured", terminalId: "T-A", route: { skipped: [] } });
  });

  it("two attempts racing for the last room of a connection: one moves, the other is dropped with limit_reached", async () => {
    await world({
      connections: { "vpos-A": daily(10_000) },
      routing: { fallback: ["T-B", "T-A", "T-C"], rules: [{ name: "a-first", when: {}, route: ["T-A"] }] },
    });
    const one = await createPayment(h, { terminalId: "T-R" });
    const two = await createPayment(h, { terminalId: "T-R" });
    await Promise.all([handOff(h, one.json.paymentRef, CARDS.bonus), handOff(h, two.json.paymentRef, CARDS.bonus)]);
    const attempts = [...(await attemptsOf(h, one.json.paymentCode)), ...(await attemptsOf(h, two.json.paymentCode))];
    expect(attempts.map((a) => a.terminalId).sort()).toEqual(["T-A", "T-B"]);
    expect(attempts.find((a) => a.terminalId === "T-B")?.route?.skipped).toEqual([{ terminalId: "T-A", reason: "limit_reached" }]);
    const rows = [await paymentRow(h, one.json.paymentCode), await paymentRow(h, two.json.paymentCode)];
    expect(rows.map((p) => p.connectionId).sort()).toEqual(["vpos-A", "vpos-B"]);
  });
});

describe("product 25: what a router offers before the card", () => {
  it("the effective set is the union of its active members' sets, capped by the partner", async () => {
    await world({});
    expect((await createPayment(h, { terminalId: "T-R", installment: 9 })).status).toBe(201);
    expect((await createPayment(h, { terminalId: "T-R", installment: 12 })).json.error.code).toBe("installment_not_allowed");
    const link = await h.post("/v1/payment-links", { terminalId: "T-R", amount: 10_000, allowedInstallmentCounts: [1, 9] });
    expect(link.status, link.text).toBe(201);
    const refused = await h.post("/v1/payment-links", { terminalId: "T-R", amount: 10_000, allowedInstallmentCounts: [12] });
    expect(refused.json.error.code).toBe("installment_not_allowed");
  });

  it("installment options for a BIN: each count from the member routing would choose (static filters); counts no member serves are absent", async () => {
    await world({ routing: { onUsInstallments: true } });
    const r = await h.post("/v1/installment-options", { terminalId: "T-R", bin: "54000066", baseAmount: 10_000 });
    expect(r.status, r.text).toBe(200);
    // Demo Bank C's card: count 1 from T-A (first in fallback), 3, 6 and 9 on-us at T-C.
    expect(r.json.options.map((o: { installmentCount: number; rateBps: number }) => [o.installmentCount, o.rateBps])).toEqual([
      [1, 200],
      [3, 300],
      [6, 650],
      [9, 900],
    ]);
    const debit = await h.post("/v1/installment-options", { terminalId: "T-R", bin: "40000033" });
    expect(debit.json.options.map((o: { installmentCount: number }) => o.installmentCount)).toEqual([1]);
  });

  it("the overview is the fallback-first member's", async () => {
    await world({ routing: { fallback: ["T-B", "T-A", "T-C"] } });
    const router = await h.post("/v1/installment-options/overview", { terminalId: "T-R" });
    const member = await h.post("/v1/installment-options/overview", { terminalId: "T-B" });
    expect(router.status).toBe(200);
    expect(router.json).toEqual(member.json);
  });
});

describe("product 25: the panel's payment page shows each attempt's bank and rule", () => {
  it("a routed payment: the serving member's bank and the matched rule", async () => {
    await world({ routing: { rules: [{ name: "world-to-b", when: { brands: ["world"] }, route: ["T-B"] }] } });
    const c = await createPayment(h, { terminalId: "T-R" });
    await pay(h, c.json.paymentRef, CARDS.world);
    await addPanelUser(h, "viewer@shop.example", "viewer");
    const panel = panelClient(h);
    await panel.login("viewer@shop.example");
    const page = await panel.get(`/panel/payments/${c.json.paymentCode}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<td>Demo Bank B<\/td><td>world-to-b<\/td>/);
  });
});

describe("product 25: a link on a router answers from the member routing would choose, and pays there", () => {
  it("a world card in 3 installments: the option and the charge are T-B's (on-us)", async () => {
    h = await harness({ config: { mode: "sandbox" }, seed: routingSeed({ routing: { onUsInstallments: true } }) });
    const link = await h.post("/v1/payment-links", { terminalId: "T-R", amount: 10_000 });
    expect(link.status, link.text).toBe(201);
    const paid = await h.post(`/sandbox/payment-links/${link.json.id}/simulate`, { card: CARDS.world, installment: 3 });
    expect(paid.status, paid.text).toBe(200);
    expect(paid.json).toMatchObject({ outcome: "captured", appliedRateBps: 420, cardBank: "Demo Bank B" });
    expect((await paymentRow(h, paid.json.paymentCode)).terminalId).toBe("T-R");
    const [attempt] = await attemptsOf(h, paid.json.paymentCode);
    expect(attempt).toMatchObject({ terminalId: "T-B", route: { skipped: [{ terminalId: "T-A", reason: "not_on_us" }] } });
  });
});
