import { afterEach, describe, expect, it } from "vitest";
import type { CaptureInput } from "../../src/bank/gateway";
import { LINK_VALIDITY_MS, MINUTE_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { answerAcs, CARDS, createLink, eventsOfLink, linkJson, payOnePage, paymentsOfLink, REDIRECT_URL, textOf } from "./link-pages-flow";

let h: Harness;
afterEach(async () => h?.close());

/** Counts capture calls to the bank; `during` runs while the bank is capturing. */
function watchCaptures(hh: Harness, during: () => Promise<void> = async () => {}): { n: number } {
  const seen = { n: 0 };
  const bank = hh.deps.banks.sim;
  const capture = bank.capture.bind(bank);
  bank.capture = async (input: CaptureInput) => {
    seen.n += 1;
    await during();
    return capture(input);
  };
  return seen;
}

describe("product 23 / issue 15 item 2: a link payment captures only while its link is still payable", () => {
  it.each([
    [
      "cancelled",
      410,
      "iptal edildi",
      async (hh: Harness, id: string) => void expect((await hh.del(`/v1/payment-links/${id}`)).status).toBe(200),
    ],
    ["expired", 410, "süresi doldu", async (hh: Harness) => hh.advance(2 * MINUTE_MS)],
  ] as const)(
    "link %s while the buyer is at the bank's 3D page: the payment fails, no capture, that state's page (HTTP %i)",
    async (status, code, words, move) => {
      h = await harness();
      const link = await createLink(h, { redirectUrl: REDIRECT_URL });
      // One minute before the link's expiry the buyer starts paying; the payment's own window is 30 minutes.
      await h.advance(LINK_VALIDITY_MS - MINUTE_MS);
      const acs = await payOnePage(h, link.token, CARDS.bonus, 1);
      expect((await linkJson(h, link.id)).status).toBe("initiated");
      await move(h, link.id);
      expect((await linkJson(h, link.id)).status).toBe(status);
      const captures = watchCaptures(h);
      const done = await answerAcs(h, acs);
      expect(captures.n).toBe(0);
      expect(done.leftTo).toBeNull();
      expect(done.page?.status).toBe(code);
      expect(textOf(done.page)).toContain(words);
      expect((await paymentsOfLink(h, link.id)).map((p) => p.status)).toEqual(["failed"]);
      expect((await linkJson(h, link.id)).status).toBe(status);
      const events = await eventsOfLink(h, link.id);
      expect(events).toContain("payment.failed");
      expect(events).not.toContain("payment.captured");
      expect(events).not.toContain("payment_link.completed");
    },
  );

  it("cancelled while the bank was capturing: the payment fails (payment.failed, no payment.captured) and the approved charge is logged with its reference to void", async () => {
    h = await harness();
    const link = await createLink(h);
    const acs = await payOnePage(h, link.token, CARDS.bonus, 1);
    const captures = watchCaptures(h, async () => void expect((await h.del(`/v1/payment-links/${link.id}`)).status).toBe(200));
    const done = await answerAcs(h, acs);
    expect(captures.n).toBe(1);
    expect(done.page?.status).toBe(410);
    const [payment] = await paymentsOfLink(h, link.id);
    expect(payment).toMatchObject({ status: "failed", capturedAtMs: null });
    const events = await eventsOfLink(h, link.id);
    expect(events).toContain("payment.failed");
    expect(events).not.toContain("payment.captured");
    expect(h.log.lines.some((line) => line.startsWith("warn") && line.includes(payment!.code) && line.includes("bankReference"))).toBe(
      true,
    );
  });
});
