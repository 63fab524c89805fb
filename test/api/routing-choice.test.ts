import { afterEach, describe, expect, it } from "vitest";
import { harness, type Harness } from "../support/harness";
import { createPayment, handOff, pageCode, pay, paymentRow } from "./payments-flow";
import type { ConnectionRow, TerminalRow } from "../../src/store/rows";
import { editTerminal } from "../support/catalog-edits";
import { attemptsOf, CARDS, routingSeed, type WorldOptions } from "./routing-world";

// docs/routing.md (product 25): the router's choice per card attempt, recorded on the attempt.

let h: Harness;
afterEach(async () => h?.close());

async function routed(o: WorldOptions, card: string, create: Record<string, unknown> = {}) {
  h = await harness({ seed: routingSeed(o) });
  const c = await createPayment(h, { terminalId: "T-R", ...create });
  expect(c.status, c.text).toBe(201);
  const { acs, done } = await pay(h, c.json.paymentRef, card);
  const attempts = await attemptsOf(h, c.json.paymentCode);
  return { code: c.json.paymentCode as string, acs, done, attempts, last: attempts[attempts.length - 1] };
}

describe("product 25: rule kinds order the candidates", () => {
  it("no rule matches: the fallback order; the first member serves and the payment keeps the router's terminalId", async () => {
    const r = await routed({}, CARDS.bonus);
    expect(r.done.leftTo).toContain("status=captured");
    expect(r.last).toMatchObject({
      status: "captured",
      terminalId: "T-A",
      connectionId: "vpos-A",
      route: { rule: "fallback", order: "rules", skipped: [] },
    });
    const p = await paymentRow(h, r.code);
    expect(p).toMatchObject({ terminalId: "T-R", connectionId: "vpos-A", appliedRateBps: 200 });
  });

  it("route: the rule's members first, the fallback members it did not list after", async () => {
    const r = await routed({ routing: { rules: [{ name: "world-to-b", when: { brands: ["world"] }, route: ["T-B"] }] } }, CARDS.world);
    expect(r.last).toMatchObject({ terminalId: "T-B", connectionId: "vpos-B", route: { rule: "world-to-b", skipped: [] } });
    const p = await paymentRow(h, r.code);
    expect(p).toMatchObject({ connectionId: "vpos-B", appliedRateBps: 150 });
  });

  it("a rule orders, it never forbids: a fallback member it did not list serves when its own cannot, under the rule's name", async () => {
    const r = await routed(
      { routing: { rules: [{ name: "all-to-b", when: {}, route: ["T-B"] }] }, terminals: { "T-B": { active: false } } },
      CARDS.bonus,
    );
    expect(r.last).toMatchObject({ terminalId: "T-A", route: { rule: "all-to-b", skipped: [{ terminalId: "T-B", reason: "inactive" }] } });
  });

  it("split: one member drawn by weight from the attempt id (weight 100 against 1 draws the heavy one)", async () => {
    const split = [
      { terminal: "T-C", weight: 1_000_000 },
      { terminal: "T-B", weight: 1 },
    ];
    const r = await routed({ routing: { rules: [{ name: "split", when: { amountFrom: 5_000 }, split }] } }, CARDS.bonus);
    expect(r.last).toMatchObject({ terminalId: "T-C", route: { rule: "split" } });
  });

  it("cheapest: the lowest commission for this amount, count and card", async () => {
    const r = await routed({ routing: { order: "cheapest" } }, CARDS.bonus);
    expect(r.last).toMatchObject({ terminalId: "T-B", route: { rule: "fallback", order: "cheapest" } });
    const three = await routed({ routing: { order: "cheapest" } }, CARDS.maximum, { installment: 3 });
    expect(three.last).toMatchObject({ terminalId: "T-C" });
  });

  it("on-us installments go to the card's own bank even when it is not first", async () => {
    const r = await routed({ routing: { onUsInstallments: true } }, CARDS.world, { installment: 3 });
    expect(r.last).toMatchObject({
      terminalId: "T-B",
      route: { skipped: [{ terminalId: "T-A", reason: "not_on_us" }] },
    });
    expect((await paymentRow(h, r.code)).appliedRateBps).toBe(420);
  });
});

describe("product 25: each candidate's first failing filter is its reason", () => {
  it.each([
    ["inactive (member terminal)", { terminals: { "T-A": { active: false } } }, CARDS.bonus, {}, "inactive"],
    ["inactive (member connection)", { connections: { "vpos-A": { active: false } } }, CARDS.bonus, {}, "inactive"],
    ["card_not_accepted (foreign)", { routing: { fallback: ["T-B", "T-A", "T-C"] } }, CARDS.foreign, {}, "card_not_accepted"],
    [
      "installments_not_offered",
      { routing: { fallback: ["T-B", "T-A", "T-C"] } },
      CARDS.bonus,
      { installment: 6 },
      "installments_not_offered",
    ],
    ["not_on_us", { routing: { onUsInstallments: true } }, CARDS.maximum, { installment: 3 }, "not_on_us"],
    ["limit_reached", { connections: { "vpos-A": { limits: { perTxMax: 5_000 } } } }, CARDS.bonus, {}, "limit_reached"],
  ] as const)("%s", async (_name, world, card, create, reason) => {
    const r = await routed(world as WorldOptions, card, create);
    expect(r.done.leftTo).toContain("status=captured");
    expect(r.last?.route?.skipped[0]).toEqual({ terminalId: r.last?.route?.skipped[0]?.terminalId, reason });
    expect(r.last?.route?.skipped[0]?.terminalId).not.toBe(r.last?.terminalId);
  });
});

type Edit = (h: Harness) => Promise<void>;

const editConnections =
  (patch: Partial<ConnectionRow>): Edit =>
  async (h) =>
    h.store.write(async (tx) => {
      for (const c of await tx.catalog.connections()) await tx.catalog.upsertConnection({ ...c, ...patch });
    });
const editMembers =
  (patch: Partial<TerminalRow>): Edit =>
  async (h) => {
    for (const id of ["T-A", "T-B", "T-C"]) await editTerminal(h.store, id, patch);
  };
const pspOff: Edit = async (h) => h.store.write(async (tx) => tx.catalog.upsertPsp({ id: "psp-1", active: false }));

describe("product 25: no member serves: today's refusal for the first candidate's reason, no bank call, nothing moved", () => {
  it.each([
    ["installments_not_offered", {}, editMembers({ installments: [1] }), CARDS.bonus, 3, "installment_not_allowed", true],
    [
      "not_on_us",
      { routing: { onUsInstallments: true, members: ["T-A", "T-C"], fallback: ["T-A", "T-C"] } },
      null,
      CARDS.world,
      3,
      "installment_not_allowed",
      true,
    ],
    ["card_not_accepted", { routing: { members: ["T-B", "T-C"], fallback: ["T-B", "T-C"] } }, null, CARDS.foreign, 1, null, true],
    ["inactive (connections)", {}, editConnections({ active: false }), CARDS.bonus, 1, "virtual_pos_inactive", false],
    ["inactive (psp)", {}, pspOff, CARDS.bonus, 1, "psp_inactive", false],
    ["limit_reached", {}, editConnections({ perTxMax: 5_000 }), CARDS.bonus, 1, null, false],
  ] as const)("%s", async (_name, world, edit, card, installment, shown, counted) => {
    h = await harness({ seed: routingSeed(world as WorldOptions) });
    const c = await createPayment(h, { terminalId: "T-R", installment });
    expect(c.status, c.text).toBe(201);
    const before = await paymentRow(h, c.json.paymentCode);
    await edit?.(h);
    const page = await handOff(h, c.json.paymentRef, card);
    expect(page.page?.status).toBe(422);
    expect(pageCode(page.page?.body ?? "")).toBe(shown);
    const row = await paymentRow(h, c.json.paymentCode);
    expect(row).toMatchObject({
      attemptsCounted: counted ? 1 : 0,
      threeDStarted: false,
      connectionId: before.connectionId,
      status: "initiated",
    });
    const attempts = await attemptsOf(h, c.json.paymentCode);
    expect(attempts.map((a) => a.status)).toEqual(counted ? ["declined"] : []);
    if (counted) expect(attempts[0]?.route?.skipped.length).toBeGreaterThan(0);
  });
});
