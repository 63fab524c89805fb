import { afterEach, describe, expect, it } from "vitest";
import type { Start3dInput } from "../../src/bank/gateway";
import { MINUTE_MS } from "../../src/limits";
import { setConnectionsActive } from "../support/catalog-edits";
import { harness, type Harness } from "../support/harness";
import { createLinkPayment } from "../../src/domain/payments/create";
import { handOff, linkPaymentOf, pageCode } from "./payments-flow";
import { answerAcs, CARDS, cardFields, createLink, linkJson, pageUrl, payOnePage, paymentsOfLink, REDIRECT_URL } from "./link-pages-flow";

let h: Harness;
afterEach(async () => h?.close());

/** Counts the 3D starts that reach the bank (each is one card tried on the bank's side). */
function countBankStarts(hh: Harness): { n: number } {
  const seen = { n: 0 };
  const bank = hh.deps.banks.sim;
  const start3d = bank.start3d.bind(bank);
  bank.start3d = (input: Start3dInput) => {
    seen.n += 1;
    return start3d(input);
  };
  return seen;
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const formBody = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** A buyer's POST from one source address (X-Forwarded-For; the harness trusts the proxy). */
const postFrom = (hh: Harness, ip: string, path: string, fields: Record<string, string>) =>
  hh.request("POST", path, { key: null, ip, headers: FORM, body: formBody(fields) });

describe("product 23 / issue 15 item 1: a link accepts at most 10 card attempts over its whole life", () => {
  it("card testing through one link: after 10 attempts across its payments the buyer gets a 429 page and the bank is not called", async () => {
    h = await harness();
    const link = await createLink(h, { redirectUrl: REDIRECT_URL });
    const bank = countBankStarts(h);
    const answers: number[] = [];
    for (let i = 0; i < 16; i += 1) {
      const r = await postFrom(h, "192.168.7.1", `/l/${link.token}/pay`, { ...cardFields(CARDS.declinedAt3d), installment: "1" });
      answers.push(r.status);
    }
    expect(bank.n).toBe(10);
    // Ten attempts: three declines per payment, the fourth post fails an exhausted payment (no bank call), then a new payment.
    expect(answers.slice(13)).toEqual([429, 429, 429]);
    let attempts = 0;
    for (const p of await paymentsOfLink(h, link.id)) attempts += (await h.store.q.attempts.byPayment(p.code)).length;
    expect(attempts).toBe(10);
    // A live card now changes nothing either: still 429, no bank call, no new payment.
    const payments = (await paymentsOfLink(h, link.id)).length;
    const live = await postFrom(h, "192.168.7.2", `/l/${link.token}/pay`, { ...cardFields(CARDS.bonus), installment: "1" });
    expect(live.status).toBe(429);
    expect(live.text).toContain("card_attempt_limit_exceeded");
    expect(live.text).not.toContain(CARDS.bonus);
    expect(bank.n).toBe(10);
    expect(await paymentsOfLink(h, link.id)).toHaveLength(payments);
    expect((await linkJson(h, link.id)).status).toBe("failed");
  });

  it("attempts that end at the ACS count too; the tenth may still be paid", async () => {
    h = await harness();
    const link = await createLink(h);
    for (let i = 0; i < 9; i += 1) await answerAcs(h, await payOnePage(h, link.token, CARDS.bonus, 1), "000000");
    const tenth = await answerAcs(h, await payOnePage(h, link.token, CARDS.bonus, 1));
    expect(tenth.page?.status).toBe(200);
    expect((await linkJson(h, link.id)).status).toBe("completed");
  });

  it("the eleventh attempt after ten failed 3D steps is a 429 page; the relay itself refuses a link payment's ref too", async () => {
    h = await harness();
    const link = await createLink(h);
    for (let i = 0; i < 10; i += 1) await answerAcs(h, await payOnePage(h, link.token, CARDS.bonus, 1), "000000");
    const bank = countBankStarts(h);
    const eleventh = await payOnePage(h, link.token, CARDS.bonus, 1);
    expect(eleventh.page?.status).toBe(429);
    // A payment of the link made behind the pages' back (as a tab that raced them would hold one).
    const partner = (await h.store.q.partners.get("ptn_test"))!;
    const stray = await h.store.write(
      async (tx) =>
        await createLinkPayment(
          tx,
          h.deps,
          {
            partner,
            linkId: link.id,
            terminalId: "T-1",
            n: await tx.links.nextAttemptSeq(link.id),
            amount: 123_456,
            principal: 123_456,
            installment: 1,
            description: null,
            returnUrl: pageUrl(link.token, "/result"),
          },
          h.clock.nowMs(),
        ),
    );
    const relay = await postFrom(h, "192.168.7.3", "/handoff", { paymentRef: stray.paymentRef, ...cardFields(CARDS.bonus) });
    expect(relay.status).toBe(429);
    expect(relay.text).toContain("card_attempt_limit_exceeded");
    expect(bank.n).toBe(0);
    expect(await h.store.q.payments.get(stray.code)).toMatchObject({ status: "initiated", attemptsCounted: 0 });
  });
});

describe("product 6.2 / 23 the relay's check 4b walks in its place", () => {
  /** A link payment whose link already recorded `n` card attempts on an earlier payment of it. */
  async function linkPaymentAfter(n: number) {
    const earlier = await linkPaymentOf(h);
    await h.store.write(async (tx) => {
      for (let i = 0; i < n; i += 1)
        await tx.attempts.insert({
          terminalId: null,
          connectionId: null,
          id: `att_old${i}`,
          paymentCode: earlier.code,
          status: "failed",
          counted: true,
          createdAtMs: 0,
        });
    });
    const partner = (await h.store.q.partners.get("ptn_test"))!;
    return h.store.write(
      async (tx) =>
        await createLinkPayment(
          tx,
          h.deps,
          {
            partner,
            linkId: earlier.linkId!,
            terminalId: "T-1",
            n: await tx.links.nextAttemptSeq(earlier.linkId!),
            amount: 10_000,
            principal: 10_000,
            installment: 1,
            description: null,
            returnUrl: earlier.returnUrl!,
          },
          h.clock.nowMs(),
        ),
    );
  }

  it("4b (link attempts) before 6 (connection active): 429 card_attempt_limit_exceeded, not counted", async () => {
    h = await harness();
    const payment = await linkPaymentAfter(10);
    await setConnectionsActive(h.store, false);
    const r = await handOff(h, payment.paymentRef, CARDS.bonus);
    expect([r.page?.status, pageCode(r.page!.body)]).toEqual([429, "card_attempt_limit_exceeded"]);
    expect(await h.store.q.payments.get(payment.code)).toMatchObject({ status: "initiated", attemptsCounted: 0 });
  });

  it("with nine attempts the tenth passes 4b and meets check 6", async () => {
    h = await harness();
    const payment = await linkPaymentAfter(9);
    await setConnectionsActive(h.store, false);
    const r = await handOff(h, payment.paymentRef, CARDS.bonus);
    expect([r.page?.status, pageCode(r.page!.body)]).toEqual([422, "virtual_pos_inactive"]);
  });
});

describe("product 23 / issue 15 items 1, 4: buyer-facing pages draw on pages.ip, never a partner's API budget", () => {
  it("past pages.ip from one address: 429 on every page (HTML) and on options (JSON), no bank call; other addresses and the API unaffected", async () => {
    h = await harness({ limits: { "pages.ip": 3, "installments.partner": 2 } });
    const link = await createLink(h);
    const bank = countBankStarts(h);
    const A = "192.168.7.1";
    for (let i = 0; i < 3; i += 1) expect((await h.request("GET", `/l/${link.token}`, { key: null, ip: A })).status).toBe(200);
    const page = await h.request("GET", `/l/${link.token}`, { key: null, ip: A });
    expect(page.status).toBe(429);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.text).toContain("rate_limited");
    const pay = await postFrom(h, A, `/l/${link.token}/pay`, { ...cardFields(CARDS.bonus), installment: "1" });
    expect(pay.status).toBe(429);
    expect(bank.n).toBe(0);
    expect(await paymentsOfLink(h, link.id)).toEqual([]);
    for (const path of [`/l/${link.token}/installments`, `/l/${link.token}/card`, "/handoff", "/sim-bank/acs"]) {
      expect([path, (await postFrom(h, A, path, { bin: "40000011", installment: "1" })).status]).toEqual([path, 429]);
    }
    const options = await h.post(`/l/${link.token}/options`, { bin: "40000011" }, { key: null, ip: A });
    expect([options.status, options.json.error.code]).toEqual([429, "rate_limited"]);
    // Another buyer, and the partner's own API budgets, are untouched.
    expect((await h.request("GET", `/l/${link.token}`, { key: null, ip: "192.168.7.2" })).status).toBe(200);
    expect((await h.post("/v1/installment-options", { bin: "40000011", terminalId: "T-1" })).status).toBe(200);
    await h.advance(MINUTE_MS);
    expect((await h.request("GET", `/l/${link.token}`, { key: null, ip: A })).status).toBe(200);
  });
});
