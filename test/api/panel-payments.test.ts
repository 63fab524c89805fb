import { afterEach, describe, expect, it } from "vitest";
import { harness, type Harness } from "../support/harness";
import { addPanelUser, codeOf, panelClient } from "../support/panel-client";
import { createPayment, pay } from "./payments-flow";

// Product 18 new payment (channel `panel`) and interface 4.5 boundary 2: a panel partnerTxCode
// replays only from the panel; the API gets 409 for it, and the panel gets 409 for an API code.

let h: Harness;
afterEach(async () => h?.close());

async function staff() {
  await addPanelUser(h, "staff@shop.example", "staff");
  const c = panelClient(h);
  await c.login("staff@shop.example");
  return c;
}

const FORM = { amount: "100,00", installment: "1", terminalId: "T-1", partnerTxCode: "PANEL-1", description: "Telefonla sipariş" };
const paymentRefOf = (text: string) => /name="paymentRef" value="([^"]+)"/.exec(text)?.[1] ?? null;
const paymentCodeOf = (text: string) => /<code>(pay_[0-9a-z]{20})<\/code>/.exec(text)?.[1] ?? null;

describe("product 18 panel payment through kasa's card form and the bank's 3D step", () => {
  it("staff creates it, the card goes to the relay, the 3D step captures it, and the result page links back", async () => {
    h = await harness();
    const c = await staff();
    const created = await c.act("/panel/new-payment", FORM);
    expect(created.status).toBe(201);
    expect(created.text).toContain('action="http://kasa.test/handoff"');
    const code = paymentCodeOf(created.text)!;
    expect(await h.store.q.payments.get(code)).toMatchObject({
      channel: "panel",
      amount: 10_000,
      partnerTxCode: "PANEL-1",
      status: "initiated",
    });
    const { done } = await pay(h, paymentRefOf(created.text)!, "4000001100000009");
    expect(done.page?.url).toBe(`http://kasa.test/panel/new-payment/done?paymentCode=${code}&status=captured`);
    expect(done.page?.body).toContain(`href="/panel/payments/${code}"`);
    expect((await h.store.q.payments.get(code))?.status).toBe("captured");
    expect((await h.store.q.panelAudit.page("ptn_test", null, 1))[0]).toMatchObject({ action: "payment.create", outcome: "ok" });
  });

  it("interface 4.5 boundary 2: a panel code replays only from the panel; the API gets 409", async () => {
    h = await harness();
    const c = await staff();
    const first = await c.act("/panel/new-payment", FORM);
    const again = await c.act("/panel/new-payment", FORM);
    expect(again.status).toBe(200);
    expect(paymentCodeOf(again.text)).toBe(paymentCodeOf(first.text));
    const api = await createPayment(h, { partnerTxCode: "PANEL-1", amount: 10_000, terminalId: "T-1", installment: 1 });
    expect([api.status, api.json.error.code]).toEqual([409, "duplicate_partner_tx_code"]);
  });

  it("interface 4.5 boundary 2: the panel gets 409 for an API code, and creates nothing", async () => {
    h = await harness();
    const api = await createPayment(h, { partnerTxCode: "API-1", amount: 10_000, terminalId: "T-1", installment: 1 });
    expect(api.status).toBe(201);
    const c = await staff();
    const r = await c.act("/panel/new-payment", { ...FORM, partnerTxCode: "API-1" });
    expect([r.status, codeOf(r.text)]).toEqual([409, "duplicate_partner_tx_code"]);
    expect(
      await h.store.q.panel.payments({
        partnerId: "ptn_test",
        status: null,
        fromMs: null,
        toMs: null,
        search: "API-1",
        before: null,
        limit: 10,
      }),
    ).toHaveLength(1);
  });

  it.each([
    ["another partner's terminal", { terminalId: "T-OTHER" }, 403, "terminal_not_allowed"],
    ["an installment count outside the terminal's set", { installment: "5" }, 422, "installment_not_allowed"],
    ["an empty partnerTxCode", { partnerTxCode: "" }, 400, "validation_error"],
  ])("%s is the API's refusal as a page", async (_n, over, status, code) => {
    h = await harness();
    const c = await staff();
    const r = await c.act("/panel/new-payment", { ...FORM, ...over });
    expect([r.status, codeOf(r.text)]).toEqual([status, code]);
  });

  it("a viewer cannot take payments", async () => {
    h = await harness();
    await addPanelUser(h, "viewer@shop.example", "viewer");
    const c = panelClient(h);
    await c.login("viewer@shop.example");
    expect((await c.get("/panel/new-payment")).status).toBe(403);
    expect((await c.act("/panel/new-payment", FORM)).status).toBe(403);
  });
});
