import { afterEach, describe, expect, it } from "vitest";
import { harness, T0, type Harness } from "../support/harness";
import { OTHER_KEY, TEST_SEED } from "../support/fixtures";
import { addPanelUser, codeOf, panelClient } from "../support/panel-client";
import { capturedPayment, createPayment, pay } from "./payments-flow";

// Product 18: every panel page and action is scoped to the user's partner, limited by role, and
// goes through the API's own domain functions (same rules, same codes), audited either way.

let h: Harness;
afterEach(async () => h?.close());

const audit = async () => await h.store.q.panelAudit.page("ptn_test", null, 100);

async function as(role: "viewer" | "staff" | "admin", email = `${role}@shop.example`) {
  await addPanelUser(h, email, role);
  const c = panelClient(h);
  expect((await c.login(email)).status).toBe(303);
  return c;
}

const AGREEMENT_SEED = {
  ...TEST_SEED,
  agreements: [
    {
      partner: "ptn_test",
      agreementCode: "DPA",
      agreementName: "Veri İşleme",
      version: "2",
      requirement: "consent" as const,
      kind: "renewal" as const,
      deadlineAt: new Date(T0 - 60_000).toISOString(),
    },
    {
      partner: "ptn_test",
      agreementCode: "MSA",
      agreementName: "Üye İşyeri",
      version: "1",
      requirement: "wet_signature" as const,
      kind: "first" as const,
    },
  ],
};

describe("product 18 panel payments: partner-scoped, same rules as the API", () => {
  it("today's payments are listed, searchable by paymentCode or partnerTxCode, and open in detail", async () => {
    h = await harness();
    const code = await capturedPayment(h, { partnerTxCode: "ORDER-77" });
    const c = await as("viewer");
    const home = await c.get("/panel/");
    expect(home.text).toMatch(/id="today-count">1</);
    const today = await c.get("/panel/payments?from=2026-11-20&to=2026-11-20");
    expect(today.text).toContain(code);
    for (const q of [code, "ORDER-77"]) expect((await c.get(`/panel/payments?q=${q}`)).text).toContain(code);
    expect((await c.get("/panel/payments?q=ORDER-78")).text).not.toContain(code);
    const detail = await c.get(`/panel/payments/${code}`);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain("ORDER-77");
    // The attempt's state in Turkish, its API name in the title (docs/panel.md, Words).
    expect(detail.text).toMatch(/<td>att-[0-9a-z]{20}<\/td><td><span title="captured">Tahsil edildi<\/span><\/td>/);
    expect(detail.text).not.toContain("İade et</button>");
  });

  it.each([
    ["status", "status=nope"],
    ["from", "from=20-11-2026"],
  ])("a bad %s filter is a 400 page with the code", async (_f, query) => {
    h = await harness();
    const c = await as("viewer");
    const r = await c.get(`/panel/payments?${query}`);
    expect(r.status).toBe(400);
    expect(codeOf(r.text)).toBe("validation_error");
  });

  it("pages are keyset-paged, newest first, without repeats", async () => {
    h = await harness();
    for (let i = 0; i < 55; i++) expect((await createPayment(h, { partnerTxCode: `P-${i}` })).status).toBe(201);
    const c = await as("viewer");
    const first = await c.get("/panel/payments");
    const next = /href="(\/panel\/payments\?[^"]*before=[^"]+)"/.exec(first.text)![1]!.replace(/&amp;/g, "&");
    const second = await c.get(next);
    const codes = (text: string) => [...text.matchAll(/href="\/panel\/payments\/(pay_[0-9a-z]+)"/g)].map((m) => m[1]);
    expect(codes(first.text)).toHaveLength(50);
    expect(codes(second.text)).toHaveLength(5);
    expect(new Set([...codes(first.text), ...codes(second.text)]).size).toBe(55);
  });

  it("another partner's payment is 404 in the URL and in a refund form, and nothing changes", async () => {
    h = await harness();
    const created = await createPayment(h, { terminalId: "T-OTHER" }, OTHER_KEY);
    const theirs = created.json.paymentCode as string;
    await pay(h, created.json.paymentRef, "4000001100000009");
    expect((await h.store.q.payments.get(theirs))?.partnerId).toBe("ptn_other");
    const c = await as("staff");
    const view = await c.get(`/panel/payments/${theirs}`);
    expect(view.status).toBe(404);
    expect(codeOf(view.text)).toBe("payment_not_found");
    const refund = await c.act(`/panel/payments/${theirs}/refunds`, { partnerRefundCode: "x-1", amount: "" });
    expect(refund.status).toBe(404);
    expect(await h.store.q.operator.refundsOfPayment(theirs)).toEqual([]);
    expect((await audit())[0]).toMatchObject({ action: "refund", target: theirs, outcome: "payment_not_found" });
  });

  it("a viewer trying a refund is a 403 page, nothing changes, and it is audited", async () => {
    h = await harness();
    const code = await capturedPayment(h);
    const c = await as("viewer");
    const r = await c.act(`/panel/payments/${code}/refunds`, { partnerRefundCode: "v-1", amount: "" });
    expect(r.status).toBe(403);
    expect(codeOf(r.text)).toBe("forbidden");
    expect(await h.store.q.operator.refundsOfPayment(code)).toEqual([]);
    expect((await audit())[0]).toMatchObject({ action: "refund", outcome: "forbidden", email: "viewer@shop.example" });
  });

  it("a refund above the remainder is the API's 422 with its code; a full refund goes through", async () => {
    h = await harness();
    const code = await capturedPayment(h, { amount: 10_000 });
    const c = await as("staff");
    const above = await c.act(`/panel/payments/${code}/refunds`, { partnerRefundCode: "s-1", amount: "100,01" });
    expect(above.status).toBe(422);
    expect(codeOf(above.text)).toBe("refund_amount_exceeds_remaining");
    expect(await h.store.q.operator.refundsOfPayment(code)).toEqual([]);
    const all = await c.act(`/panel/payments/${code}/refunds`, { partnerRefundCode: "s-2", amount: "" });
    expect(all.status).toBe(303);
    expect((await h.store.q.operator.refundsOfPayment(code)).map((r) => [r.method, r.status])).toEqual([["void", "approved"]]);
    expect((await audit())[0]).toMatchObject({ action: "refund", target: code, outcome: "ok" });
  });

  it("the refund form's code makes a double submit refund once (409 refund_in_progress)", async () => {
    h = await harness();
    const code = await capturedPayment(h);
    const c = await as("staff");
    const page = await c.get(`/panel/payments/${code}`);
    const refundCode = /name="partnerRefundCode" value="([^"]+)"/.exec(page.text)![1]!;
    expect((await c.act(`/panel/payments/${code}/refunds`, { partnerRefundCode: refundCode, amount: "" })).status).toBe(303);
    const twice = await c.act(`/panel/payments/${code}/refunds`, { partnerRefundCode: refundCode, amount: "" });
    expect([twice.status, codeOf(twice.text)]).toEqual([409, "refund_in_progress"]);
    expect(await h.store.q.operator.refundsOfPayment(code)).toHaveLength(1);
  });

  it("a refund amount that is not money is a 400 page naming the field", async () => {
    h = await harness();
    const code = await capturedPayment(h);
    const c = await as("staff");
    const r = await c.act(`/panel/payments/${code}/refunds`, { partnerRefundCode: "s-1", amount: "12abc" });
    expect(r.status).toBe(400);
    expect(r.text).toContain("amount:");
  });
});

describe("product 18 panel admin actions", () => {
  it("an admin issues a key (shown once) that works on the API, then revokes it: the next request is 401", async () => {
    h = await harness();
    const c = await as("admin");
    const issued = await c.act("/panel/keys");
    expect(issued.status).toBe(201);
    const key = /id="new-key">([^<]+)</.exec(issued.text)![1]!;
    expect((await h.get("/v1/payment-acceptance", { key })).status).toBe(200);
    expect((await c.get("/panel/keys")).text).not.toContain(key);
    const id = /Yeni anahtar <code>(key_[0-9a-z]+)<\/code>/.exec(issued.text)![1]!;
    expect((await c.act(`/panel/keys/${id}/revoke`)).status).toBe(303);
    expect((await h.get("/v1/payment-acceptance", { key })).status).toBe(401);
  });

  it("another partner's key id is 404 and stays valid; staff cannot issue keys", async () => {
    h = await harness();
    const other = (await h.store.q.apiKeys.list("ptn_other"))[0]!.id;
    const admin = await as("admin");
    const r = await admin.act(`/panel/keys/${other}/revoke`);
    expect(r.status).toBe(404);
    expect((await h.get("/v1/payment-acceptance", { key: OTHER_KEY })).status).toBe(200);
    const staff = await as("staff");
    expect((await staff.act("/panel/keys")).status).toBe(403);
    expect((await staff.get("/panel/keys")).status).toBe(403);
  });

  it("accepting a consent agreement lifts its hold; a wet-signature one cannot be accepted here", async () => {
    h = await harness({ seed: AGREEMENT_SEED });
    expect((await h.get("/v1/payment-acceptance")).json.acceptingPayments).toBe(false);
    const c = await as("admin");
    expect((await c.get("/panel/acceptance")).text).toContain("Hesap şu anda ödeme kabul etmiyor.");
    const wet = await c.act("/panel/agreements/MSA/1/accept");
    expect(wet.status).toBe(403);
    expect((await c.act("/panel/agreements/DPA/2/accept")).status).toBe(303);
    expect((await h.get("/v1/payment-acceptance")).json.acceptingPayments).toBe(true);
    expect((await c.get("/panel/acceptance")).text).toContain("Hesap ödeme kabul ediyor.");
    expect((await audit()).slice(0, 2).map((a) => [a.action, a.outcome])).toEqual([
      ["agreement.accept", "ok"],
      ["agreement.accept", "forbidden"],
    ]);
  });

  it("a staff user cannot accept agreements (403, audited)", async () => {
    h = await harness({ seed: AGREEMENT_SEED });
    const c = await as("staff");
    expect((await c.act("/panel/agreements/DPA/2/accept")).status).toBe(403);
    expect((await h.get("/v1/payment-acceptance")).json.acceptingPayments).toBe(false);
  });

  it("users: an admin adds one (one-time password shown) and disables another partner's user only as 404", async () => {
    h = await harness();
    await addPanelUser(h, "them@other.example", "admin", "ptn_other");
    const theirs = (await h.store.q.panelUsers.byEmail("them@other.example"))!.id;
    const c = await as("admin");
    const added = await c.act("/panel/users", { email: "new@shop.example", role: "staff" });
    expect(added.status).toBe(201);
    expect((await h.store.q.panelUsers.byEmail("new@shop.example"))?.partnerId).toBe("ptn_test");
    expect((await c.act(`/panel/users/${theirs}/disable`)).status).toBe(404);
    expect((await h.store.q.panelUsers.get(theirs))?.status).toBe("active");
    const log = await c.get("/panel/audit");
    expect(log.text).toContain("user.add");
    expect(log.text).not.toContain("them@other.example");
  });
});
