import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { answerAcs, BASE, CARDS, createLink, linkJson, payOnePage, REDIRECT_URL } from "./link-pages-flow";

let h: Harness;
afterEach(async () => h?.close());

/** Where the callback sent the buyer: the link's result URL with the payment's code. */
async function resultUrlAfter(pan: string, otp: string, token: string): Promise<string> {
  const done = await answerAcs(h, await payOnePage(h, token, pan, 1), otp);
  const location = done.trail[0]!.headers.get("location")!;
  expect(location).toMatch(new RegExp(`^${BASE}/l/${token}/result\\?paymentCode=`));
  return location;
}

const getResult = async (url: string) => {
  const r = await h.runtime.app.request(url);
  return { status: r.status, location: r.headers.get("location"), text: await r.text() };
};

describe("product 23 / issue 15 item 7: /l/{token}/result redirects only for the attempt that just ended", () => {
  it("a failed attempt: 303 to the partner for 10 minutes after it ended, then kasa's own link page", async () => {
    h = await harness();
    const link = await createLink(h, { redirectUrl: REDIRECT_URL });
    const url = await resultUrlAfter(CARDS.bonus, "000000", link.token);
    await h.advance(10 * MINUTE_MS - 1);
    expect(await getResult(url)).toMatchObject({ status: 303, location: `${REDIRECT_URL}/payment/failure` });
    await h.advance(1);
    expect(await getResult(url)).toMatchObject({ status: 303, location: `${BASE}/l/${link.token}` });
    await h.advance(7 * 24 * 60 * MINUTE_MS);
    const later = await getResult(url);
    expect(later.location ?? "").not.toContain("shop.example");
  });

  it("a captured attempt: 303 to success at first, later the hosted page of the completed link", async () => {
    h = await harness();
    const link = await createLink(h, { redirectUrl: REDIRECT_URL });
    const url = await resultUrlAfter(CARDS.bonus, "123456", link.token);
    expect(await getResult(url)).toMatchObject({ status: 303, location: `${REDIRECT_URL}/payment/success` });
    await h.advance(10 * MINUTE_MS);
    const later = await getResult(url);
    expect([later.status, later.location]).toEqual([200, null]);
    expect(later.text).toContain("ödeme yapıldı");
  });

  it("after a cancel: no redirect at all, the cancelled link's page (410)", async () => {
    h = await harness();
    const link = await createLink(h, { redirectUrl: REDIRECT_URL });
    const url = await resultUrlAfter(CARDS.bonus, "000000", link.token);
    expect((await h.del(`/v1/payment-links/${link.id}`)).status).toBe(200);
    expect((await linkJson(h, link.id)).status).toBe("cancelled");
    const r = await getResult(url);
    expect([r.status, r.location]).toEqual([410, null]);
    expect(r.text).toContain("iptal edildi");
  });
});
