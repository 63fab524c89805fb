import { afterEach, describe, expect, it } from "vitest";
import { editTerminal } from "../support/catalog-edits";
import { harness, type Harness } from "../support/harness";
import { createPayment, handOff, pageCode, pay, paymentRow, seedWith } from "./payments-flow";

// Issue 29: each card attempt records the terminal and connection it was routed to, chosen once
// at 3D start (src/domain/payments/routing.ts); every later bank call of the attempt follows them.

let h: Harness;
afterEach(async () => h?.close());

const APPROVED = "4000001100000009";
const DECLINED = "5400007700000003";
const FOREIGN = "4000005500000006";

const routesOf = async (code: string) =>
  (await h.store.q.attempts.byPayment(code)).map((a) => ({ status: a.status, terminalId: a.terminalId, connectionId: a.connectionId }));

describe("issue 29: the attempt records its terminal and connection", () => {
  it("declined, counted and captured attempts all record the payment's terminal and connection", async () => {
    h = await harness();
    const c = await createPayment(h);
    await handOff(h, c.json.paymentRef, DECLINED);
    await handOff(h, c.json.paymentRef, FOREIGN);
    const { done } = await pay(h, c.json.paymentRef, APPROVED);
    expect(done.leftTo).toContain("status=captured");
    const route = { terminalId: "T-1", connectionId: "vpos-1" };
    // One manual-clock instant: the order of the rows is their ids', so compare them sorted.
    const routes = (await routesOf(c.json.paymentCode)).sort((a, b) => a.status.localeCompare(b.status));
    expect(routes).toEqual([
      { status: "captured", ...route },
      { status: "declined", ...route },
      { status: "declined", ...route },
    ]);
  });

  it("a terminal moved to another connection after create: the attempt keeps the payment's connection, checks included", async () => {
    // The one decision routing.ts takes where the handoff's checks (the terminal's connection then)
    // and the bank calls (the payment's) used to disagree: the payment's connection, for both.
    h = await harness({ seed: seedWith({ connections: [{ id: "vpos-2", psp: "psp-1", bank: "sim", active: false }] }) });
    const c = await createPayment(h);
    await editTerminal(h.store, "T-1", { connectionId: "vpos-2" });
    const { acs, done } = await pay(h, c.json.paymentRef, APPROVED);
    expect(acs.page?.status, pageCode(acs.page?.body ?? "") ?? "").toBe(200);
    expect(done.leftTo).toContain("status=captured");
    expect(await routesOf(c.json.paymentCode)).toEqual([{ status: "captured", terminalId: "T-1", connectionId: "vpos-1" }]);
    expect((await paymentRow(h, c.json.paymentCode)).connectionId).toBe("vpos-1");
  });
});
