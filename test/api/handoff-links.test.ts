import { afterEach, describe, expect, it } from "vitest";
import { createLinkPayment } from "../../src/domain/payments/create";
import { MINUTE_MS } from "../../src/limits";
import { harness, type Harness } from "../support/harness";
import { answerAcs, eventsOf, handOff, linkPaymentOf, pageCode, paymentRow } from "./payments-flow";

// Interface 3.1 rows a link payment's attempt drives (the link engineer's markAttemptStarted /
// markAttemptFailed / markCompleted, called in the same unit as the payment's own move).

let h: Harness;
afterEach(async () => h?.close());

const APPROVED = "4000001100000009";
const RETURN = "https://shop.example/l/result";

const linkOf = async (h: Harness, linkId: string | null) => (await h.store.q.links.get(linkId ?? ""))!;
const linkEvents = async (h: Harness, linkId: string) =>
  (await h.store.q.webhooks.list({ partnerId: null, status: null, limit: 1000 }))
    .map((d) => JSON.parse(d.body))
    .filter((b) => b.paymentLinkId === linkId)
    .map((b) => b.type);

describe("interface 3.1 a link follows its payment's attempt", () => {
  it("launched -> initiated when 3D starts; -> completed at capture, with payment_link.completed and payment.captured", async () => {
    h = await harness();
    const p = await linkPaymentOf(h, { returnUrl: RETURN });
    expect((await linkOf(h, p.linkId)).status).toBe("launched");
    const acs = await handOff(h, p.paymentRef, APPROVED);
    expect((await linkOf(h, p.linkId)).status).toBe("initiated");
    const done = await answerAcs(h, acs);
    expect(done.leftTo).toBe(`${RETURN}?paymentCode=${p.code}&status=captured`);
    expect((await linkOf(h, p.linkId)).status).toBe("completed");
    expect(await linkEvents(h, p.linkId!)).toEqual(["payment_link.completed"]);
    expect(await eventsOf(h, p.code)).toEqual(["payment.captured"]);
  });

  it.each([
    ["declined at 3D start", "5400007700000003", false],
    ["3D rejected", "4000008800000007", true],
    ["capture rejected", "4000009900000004", true],
  ])("initiated -> failed when the attempt ends without a capture (%s)", async (_n, pan, reachesAcs) => {
    h = await harness();
    const p = await linkPaymentOf(h, { returnUrl: RETURN });
    const acs = await handOff(h, p.paymentRef, pan);
    if (reachesAcs) await answerAcs(h, acs);
    expect((await linkOf(h, p.linkId)).status).toBe("failed");
    expect(await linkEvents(h, p.linkId!)).toEqual([]);
  });

  it("initiated -> failed when the payment's window expires mid-3D; the link stays payable", async () => {
    h = await harness();
    const p = await linkPaymentOf(h, { returnUrl: RETURN });
    await handOff(h, p.paymentRef, APPROVED);
    await h.advance(30 * MINUTE_MS);
    expect((await paymentRow(h, p.code)).status).toBe("expired");
    expect((await linkOf(h, p.linkId)).status).toBe("failed");
  });

  it("no second attempt while the link is initiated: another payment of the link is refused 409, not counted", async () => {
    h = await harness();
    const first = await linkPaymentOf(h, { returnUrl: RETURN });
    await handOff(h, first.paymentRef, APPROVED);
    const partner = (await h.store.q.partners.get("ptn_test"))!;
    const other = await h.store.write(
      async (tx) =>
        await createLinkPayment(
          tx,
          h.deps,
          {
            partner,
            linkId: first.linkId!,
            terminalId: "T-1",
            n: await tx.links.nextAttemptSeq(first.linkId!),
            amount: 10_000,
            principal: 10_000,
            installment: 1,
            description: null,
            returnUrl: RETURN,
          },
          h.clock.nowMs(),
        ),
    );
    const r = await handOff(h, other.paymentRef, APPROVED);
    expect([r.page?.status, pageCode(r.page!.body)]).toEqual([409, "payment_prepare_already_started"]);
    expect(await paymentRow(h, other.code)).toMatchObject({ status: "initiated", attemptsCounted: 0, threeDStarted: false });
  });

  it("a cancelled link's payment cannot start 3D (409)", async () => {
    h = await harness();
    const p = await linkPaymentOf(h, { returnUrl: RETURN });
    expect((await h.del(`/v1/payment-links/${p.linkId}`)).status).toBe(200);
    const r = await handOff(h, p.paymentRef, APPROVED);
    expect([r.page?.status, pageCode(r.page!.body)]).toEqual([409, "payment_prepare_already_started"]);
  });
});
