import { afterEach, describe, expect, it } from "vitest";
import { failPayment } from "../../src/domain/payments/transitions";
import { createLinkPayment } from "../../src/domain/payments/create";
import { MINUTE_MS } from "../../src/limits";
import { TEST_SEED } from "../support/fixtures";
import { editPartners } from "../support/catalog-edits";
import { harness, T0, type Harness } from "../support/harness";
import {
  answerAcs,
  BASE,
  CARDS,
  cardFields,
  createLink,
  eventsOfLink,
  formActionOf,
  linkClient,
  linkJson,
  openPage,
  pageUrl,
  payInSteps,
  payOnePage,
  paymentsOfLink,
  REDIRECT_URL,
  textOf,
} from "./link-pages-flow";

let h: Harness;
afterEach(async () => h?.close());

/** totalAmount of the link's option for a card and count, as the page's options endpoint quotes it. */
async function quotedTotal(token: string, pan: string, count: number): Promise<number> {
  const r = await h.post(`/l/${token}/options`, { bin: pan.slice(0, 8) }, { key: null });
  return r.json.options.find((o: { installmentCount: number }) => o.installmentCount === count).totalAmount;
}

describe("product 7 paying through a link: the link and payment records agree with the pages", () => {
  it("3 installments, steps without JavaScript, test card, ACS 123456: 303 to {redirectUrl}/payment/success", async () => {
    h = await harness();
    const link = await createLink(h, { redirectUrl: REDIRECT_URL, customerCommissionShareBps: 10_000, description: "Sipariş 42" });
    const total = await quotedTotal(link.token, CARDS.bonus, 3);
    expect(total).toBeGreaterThan(123_456);
    const acs = await payInSteps(h, link.token, CARDS.bonus, 3);
    expect(textOf(acs.page)).toContain("3 taksit");
    expect((await linkJson(h, link.id)).status).toBe("initiated");
    const done = await answerAcs(h, acs);
    expect(done.leftTo).toBe(`${REDIRECT_URL}/payment/success`);

    const api = await linkJson(h, link.id);
    expect(api).toMatchObject({ status: "completed", firstOpenedAt: new Date(T0).toISOString() });
    const [payment] = await paymentsOfLink(h, link.id);
    expect(payment).toMatchObject({
      status: "captured",
      channel: "link",
      partnerTxCode: `PL-${link.id}-1`,
      amount: total,
      principal: 123_456,
      installment: 3,
      description: "Sipariş 42",
      maskedPan: "400000******0009",
    });
    const record = await h.get(`/v1/payments/${payment!.code}`);
    expect(record.json).toMatchObject({ status: "captured", amount: total, installmentCount: 3, partnerTxCode: `PL-${link.id}-1` });
    expect((await eventsOfLink(h, link.id)).sort()).toEqual(["payment.captured", "payment_link.completed"]);
    // Interface 3.1: completed is terminal, its page is 200 and offers nothing to pay.
    const after = await openPage(h, link.token);
    expect([after.page?.status, after.page?.forms.length]).toEqual([200, 0]);
    expect(textOf(after.page)).toContain("ödeme yapıldı");
    expect(await linkJson(h, link.id)).toEqual(api);
  });

  it("the one-page form (what the script posts), no redirectUrl: the hosted result page", async () => {
    h = await harness();
    const link = await createLink(h, { customerCommissionShareBps: 5000 });
    const total = await quotedTotal(link.token, CARDS.world, 6);
    const done = await answerAcs(h, await payOnePage(h, link.token, CARDS.world, 6));
    expect(done.leftTo).toBeNull();
    expect(done.page?.status).toBe(200);
    expect(done.page?.url).toMatch(new RegExp(`/l/${link.token}/result\\?paymentCode=pay_`));
    const text = textOf(done.page);
    expect(text).toContain("Ödemeniz alındı");
    expect(text).toContain("6 taksit");
    expect(text).toContain("400000******0006");
    expect((await paymentsOfLink(h, link.id))[0]).toMatchObject({ status: "captured", amount: total, installment: 6 });
    expect((await linkJson(h, link.id)).status).toBe("completed");
  });

  it("net terminal: the charge is the option's total, the commission is on the link's base amount", async () => {
    h = await harness();
    const link = await createLink(h, { terminalId: "T-NET", amount: 10_000, customerCommissionShareBps: 10_000 });
    const total = await quotedTotal(link.token, CARDS.bonus, 3);
    await answerAcs(h, await payInSteps(h, link.token, CARDS.bonus, 3));
    expect((await paymentsOfLink(h, link.id))[0]).toMatchObject({
      status: "captured",
      amount: total,
      principal: 10_000,
      commissionAmount: 480,
    });
  });
});

describe("interface 3.1 failed attempts re-open the link", () => {
  it.each([
    // Its BIN is not in the test table: an unresolved BIN is offered a single charge only.
    ["3D authentication fails (4000008800000007)", CARDS.failsAuthentication, 1, "123456"],
    ["wrong one-time code", CARDS.bonus, 3, "000000"],
  ])("%s, then a successful attempt: failure URL, failed, then success URL, completed", async (_n, pan, count, otp) => {
    h = await harness();
    const link = await createLink(h, { redirectUrl: REDIRECT_URL });
    const failed = await answerAcs(h, await payInSteps(h, link.token, pan, count), otp);
    expect(failed.leftTo).toBe(`${REDIRECT_URL}/payment/failure`);
    expect((await linkJson(h, link.id)).status).toBe("failed");
    expect((await paymentsOfLink(h, link.id)).map((p) => p.status)).toEqual(["failed"]);
    // The link is payable again: its page offers the forms.
    expect((await openPage(h, link.token)).page?.forms.map((f) => f.id)).toEqual(["bin-form", "pay-form"]);
    const ok = await answerAcs(h, await payInSteps(h, link.token, CARDS.bonus, 3));
    expect(ok.leftTo).toBe(`${REDIRECT_URL}/payment/success`);
    expect((await linkJson(h, link.id)).status).toBe("completed");
    const payments = await paymentsOfLink(h, link.id);
    expect(payments.map((p) => [p.status, p.partnerTxCode])).toEqual([
      ["failed", `PL-${link.id}-1`],
      ["captured", `PL-${link.id}-2`],
    ]);
    expect((await eventsOfLink(h, link.id)).sort()).toEqual(["payment.captured", "payment.failed", "payment_link.completed"]);
  });

  it("without redirectUrl the failure is a hosted page that leads back to the link", async () => {
    h = await harness();
    const link = await createLink(h);
    const failed = await answerAcs(h, await payOnePage(h, link.token, CARDS.insufficientFunds, 1));
    expect(failed.page?.status).toBe(200);
    expect(textOf(failed.page)).toContain("Ödeme tamamlanamadı");
    expect(failed.page!.body).toContain(`href="${BASE}/l/${link.token}"`);
    expect((await linkJson(h, link.id)).status).toBe("failed");
  });

  it("declined at 3D start: the failure URL straight from the pay step; the same payment takes the next card", async () => {
    h = await harness();
    const link = await createLink(h, { redirectUrl: REDIRECT_URL });
    const declined = await payInSteps(h, link.token, CARDS.declinedAt3d, 1);
    expect(declined.leftTo).toBe(`${REDIRECT_URL}/payment/failure`);
    expect((await linkJson(h, link.id)).status).toBe("failed");
    expect(await paymentsOfLink(h, link.id)).toMatchObject([{ status: "initiated", attemptsCounted: 1, threeDStarted: false }]);
    const ok = await answerAcs(h, await payInSteps(h, link.token, CARDS.bonus, 1));
    expect(ok.leftTo).toBe(`${REDIRECT_URL}/payment/success`);
    expect(await paymentsOfLink(h, link.id)).toMatchObject([{ status: "captured", attemptsCounted: 1, partnerTxCode: `PL-${link.id}-1` }]);
  });

  it("declined at 3D start without redirectUrl: 422 page with payment_declined; another option supersedes that payment", async () => {
    h = await harness();
    const link = await createLink(h);
    const declined = await payInSteps(h, link.token, CARDS.declinedAt3d, 1);
    expect(declined.page?.status).toBe(422);
    expect(textOf(declined.page)).toContain("payment_declined");
    expect(declined.page!.body).not.toContain(CARDS.declinedAt3d);
    await answerAcs(h, await payInSteps(h, link.token, CARDS.bonus, 3));
    expect((await paymentsOfLink(h, link.id)).map((p) => [p.status, p.installment])).toEqual([
      ["failed", 1],
      ["captured", 3],
    ]);
    expect((await linkJson(h, link.id)).status).toBe("completed");
  });
});

describe("interface 3.1 one attempt at a time while initiated", () => {
  it("a second tab gets a clear page (200 on open, 409 on pay) and makes no payment; the first tab completes", async () => {
    h = await harness({ seed: { ...TEST_SEED } });
    const link = await createLink(h, { redirectUrl: REDIRECT_URL });
    const acs = await payOnePage(h, link.token, CARDS.bonus, 1);
    expect((await linkJson(h, link.id)).status).toBe("initiated");
    const open = await openPage(h, link.token);
    expect([open.page?.status, open.page?.forms.length]).toEqual([200, 0]);
    expect(textOf(open.page)).toContain("Ödeme işlemi sürüyor");
    const second = await linkClient(h).post(pageUrl(link.token, "/pay"), { ...cardFields(CARDS.world), installment: "1" });
    expect(second.page?.status).toBe(409);
    expect(textOf(second.page)).toContain("Ödeme işlemi sürüyor");
    expect(await paymentsOfLink(h, link.id)).toHaveLength(1);
    expect((await answerAcs(h, acs)).leftTo).toBe(`${REDIRECT_URL}/payment/success`);
  });

  it("two tabs paying at once: exactly one reaches the bank, the other sees the busy page", async () => {
    h = await harness();
    const link = await createLink(h);
    await openPage(h, link.token);
    const pay = (pan: string, count: string) => linkClient(h).post(pageUrl(link.token, "/pay"), { ...cardFields(pan), installment: count });
    const outcomes = await Promise.all([pay(CARDS.bonus, "3"), pay(CARDS.world, "3"), pay(CARDS.maximum, "3")]);
    const atAcs = outcomes.filter((o) => o.page?.url.endsWith("/sim-bank/acs"));
    expect(atAcs).toHaveLength(1);
    expect(outcomes.filter((o) => o.page?.status === 409)).toHaveLength(2);
    expect((await answerAcs(h, atAcs[0]!)).page?.status).toBe(200);
    expect((await linkJson(h, link.id)).status).toBe("completed");
    expect((await paymentsOfLink(h, link.id)).filter((p) => p.status === "captured")).toHaveLength(1);
  });

  it("a payment of the link that never reached 3D failing meanwhile does not free the link its attempt holds", async () => {
    h = await harness();
    const link = await createLink(h);
    const acs = await payOnePage(h, link.token, CARDS.bonus, 1);
    const partner = (await h.store.q.partners.get("ptn_test"))!;
    await h.store.write(async (tx) => {
      const stray = await createLinkPayment(
        tx,
        h.deps,
        {
          partner,
          linkId: link.id,
          terminalId: "T-1",
          n: await tx.links.nextAttemptSeq(link.id),
          amount: 125_000,
          principal: 123_456,
          installment: 1,
          description: null,
          returnUrl: pageUrl(link.token, "/result"),
        },
        h.clock.nowMs(),
      );
      await failPayment(tx, h.deps, stray, h.clock.nowMs());
    });
    expect((await linkJson(h, link.id)).status).toBe("initiated");
    expect((await answerAcs(h, acs)).page?.status).toBe(200);
    expect((await linkJson(h, link.id)).status).toBe("completed");
  });

  it("an attempt abandoned at the ACS frees the link when its 3D window ends", async () => {
    h = await harness();
    const link = await createLink(h);
    await payOnePage(h, link.token, CARDS.bonus, 1);
    await h.advance(30 * MINUTE_MS - 1);
    expect((await openPage(h, link.token)).page?.forms).toHaveLength(0);
    await h.advance(1);
    expect((await linkJson(h, link.id)).status).toBe("failed");
    expect((await openPage(h, link.token)).page?.forms.map((f) => f.id)).toEqual(["bin-form", "pay-form"]);
  });
});

describe("product 6 / 7 the pay step refuses before any payment", () => {
  it.each([
    ["a PAN failing Luhn", 400, { pan: "4000001100000008" }, "Kart numarası geçersiz"],
    ["an expiry in the past", 400, { expireYear: "20" }, "Son kullanma tarihi"],
    ["a CVV of 2 digits", 400, { cv2: "12" }, "Güvenlik kodu"],
    ["no installment", 400, { installment: "" }, "taksit"],
    ["a count the card is not offered (debit, 3)", 422, { pan: CARDS.debit, installment: "3" }, "installment_not_allowed"],
    ["a count outside allowedInstallmentCounts", 422, { installment: "12" }, "installment_not_allowed"],
  ])("%s: HTTP %i, nothing typed repeated, no payment, the link unchanged", async (_n, status, over, words) => {
    h = await harness();
    const link = await createLink(h, { allowedInstallmentCounts: [1, 3] });
    await openPage(h, link.token);
    const fields = { ...cardFields(CARDS.bonus), installment: "3", ...over };
    const r = await linkClient(h).post(pageUrl(link.token, "/pay"), fields);
    expect(r.page?.status).toBe(status);
    expect(textOf(r.page)).toContain(words);
    expect(r.page!.body).not.toContain(fields.pan);
    expect(r.page!.body).not.toContain(`"${fields.cv2}"`);
    expect(await paymentsOfLink(h, link.id)).toEqual([]);
    expect((await linkJson(h, link.id)).status).toBe("launched");
  });

  it("a card the link cannot be paid with (foreign): the generic page, no code, no payment", async () => {
    h = await harness();
    const link = await createLink(h);
    const r = await linkClient(h).post(pageUrl(link.token, "/pay"), { ...cardFields(CARDS.foreign), installment: "1" });
    expect(r.page?.status).toBe(422);
    expect(textOf(r.page)).not.toContain("Hata kodu");
    expect(await paymentsOfLink(h, link.id)).toEqual([]);
  });

  it("partner not accepting payments: 403 partner_not_active, no payment", async () => {
    h = await harness();
    const link = await createLink(h);
    await editPartners(h.store, { status: "suspended" }, "ptn_test");
    const r = await linkClient(h).post(pageUrl(link.token, "/pay"), { ...cardFields(CARDS.bonus), installment: "1" });
    expect([r.page?.status, textOf(r.page).includes("partner_not_active")]).toEqual([403, true]);
    expect(await paymentsOfLink(h, link.id)).toEqual([]);
  });
});

describe("product 6 CSP form-action along the way (Chromium checks it on redirects too)", () => {
  it("card form and ACS allow the redirectUrl origin; the bank page only the bank", async () => {
    h = await harness();
    const link = await createLink(h, { redirectUrl: REDIRECT_URL });
    const client = linkClient(h);
    const options = await client.post(pageUrl(link.token, "/installments"), { bin: "40000011" });
    expect(formActionOf(options.page!)).toEqual([BASE]);
    const card = await client.post(pageUrl(link.token, "/card"), { bin: "40000011", installment: "1" });
    expect(formActionOf(card.page!)).toEqual([BASE, "https://shop.example"]);
    const acs = await client.post(pageUrl(link.token, "/pay"), { ...cardFields(CARDS.bonus), installment: "1" });
    const [bankPage, acsPage] = acs.trail;
    expect(formActionOf(bankPage!)).toEqual([BASE]);
    expect(bankPage!.headers.get("cache-control")).toBe("no-store");
    expect(acsPage!.url).toBe(`${BASE}/sim-bank/acs`);
    expect(formActionOf(acsPage!)).toEqual([BASE, "https://shop.example"]);
    const done = await answerAcs(h, acs);
    for (const visit of done.trail) expect(visit.headers.get("cache-control")).toBe("no-store");
    expect(done.trail.map((v) => v.status)).toEqual([303, 303]);
  });

  it("the result page decides from the payment record, not the query; an unknown code leads to the link", async () => {
    h = await harness();
    const link = await createLink(h, { redirectUrl: REDIRECT_URL });
    const done = await answerAcs(h, await payOnePage(h, link.token, CARDS.failsAuthentication, 1));
    const resultUrl = done.trail[0]!.headers.get("location")!;
    const forged = resultUrl.replace("status=failed", "status=captured");
    const r = await h.runtime.app.request(forged);
    expect([r.status, r.headers.get("location")]).toEqual([303, `${REDIRECT_URL}/payment/failure`]);
    const unknown = await h.runtime.app.request(pageUrl(link.token, "/result?paymentCode=pay_nope&status=captured"));
    expect([unknown.status, unknown.headers.get("location")]).toEqual([303, `${BASE}/l/${link.token}`]);
  });
});
