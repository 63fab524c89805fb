import * as v from "valibot";
import { istanbulDate } from "../../domain/checks/istanbul-time";
import { paymentByCode, refundSummariesOf } from "../../domain/payments/service";
import { toPaymentJson } from "../../domain/payments/view";
import { ERROR_CATALOG, fail, type ErrorCode } from "../../errors";
import type { Deps } from "../../deps";
import type { ApiContext, ApiReply } from "../endpoint";
import type { JourneyEnd, SandboxBuyer, SimulatedCard } from "../sandbox/simulate";

// docs/contract.md, The sandbox: POST /sandbox/payments/{paymentCode}/simulate and /sandbox/payment-links/{id}/simulate
// (sandbox mode only; the owner's key). The body names the test card and, optionally, the 3D code,
// the expiry, the CVV and (links) the installment count; the answer is the payment record
// (docs/contract.md, The payment record) with `outcome`: the code of the page that refused the card, `refused` for the
// generic pages that show none (docs/checkout.md, The handoff relay and the 3D step), or the payment's state after the 3D step.

const digits = (min: number, max: number, what: string) =>
  v.pipe(v.string(), v.regex(new RegExp(`^\\d{${min},${max}}$`), `must be ${what}`));

const cardFields = {
  card: v.pipe(
    v.string(),
    v.transform((s) => s.replace(/ /g, "")),
    v.regex(/^\d{13,19}$/, "must be a card number of 13-19 digits"),
  ),
  otp: v.optional(v.pipe(v.string(), v.maxLength(16))),
  expireMonth: v.optional(digits(2, 2, "MM")),
  expireYear: v.optional(digits(2, 2, "YY")),
  cv2: v.optional(digits(3, 4, "3 or 4 digits")),
};

export const simulatePaymentBody = v.strictObject(cardFields);
export const simulateLinkBody = v.strictObject({
  ...cardFields,
  installment: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(36))),
});

type CardBody = v.InferOutput<typeof simulatePaymentBody>;

/** The answer for a link that cannot take a payment any more (docs/errors.md, API errors, as the link endpoints give it). */
const LINK_CLOSED: Record<string, ErrorCode> = {
  completed: "payment_link_already_paid",
  expired: "payment_link_expired",
  cancelled: "payment_link_cancelled",
};

/** The 3D code that authenticates at the simulated bank (docs/checkout.md). */
const SANDBOX_OTP = "123456";

/** Any future expiry works: December, three years on, in Istanbul time. */
function toCard(deps: Deps, body: CardBody): SimulatedCard {
  const year = Number(istanbulDate(deps.clock.nowMs()).slice(0, 4)) + 3;
  return {
    pan: body.card,
    expireMonth: body.expireMonth ?? "12",
    expireYear: body.expireYear ?? String(year % 100).padStart(2, "0"),
    cv2: body.cv2 ?? "123",
  };
}

async function reply(ctx: ApiContext, paymentCode: string, end: JourneyEnd): Promise<ApiReply> {
  const payment = await paymentByCode(ctx.deps, ctx.partner.id, paymentCode);
  const outcome = end.stage === "refused" ? (end.code ?? "refused") : payment.status;
  return { status: 200, body: { ...toPaymentJson(payment, await refundSummariesOf(ctx.deps.store.q, payment.code)), outcome } };
}

export const simulatePayment =
  (buyer: () => SandboxBuyer) =>
  async (ctx: ApiContext<CardBody>): Promise<ApiReply> => {
    const payment = await paymentByCode(ctx.deps, ctx.partner.id, ctx.params.paymentCode ?? "");
    const end = await buyer().payPayment(payment.paymentRef, toCard(ctx.deps, ctx.body), ctx.body.otp ?? SANDBOX_OTP);
    return reply(ctx, payment.code, end);
  };

export const simulateLink =
  (buyer: () => SandboxBuyer) =>
  async (ctx: ApiContext<v.InferOutput<typeof simulateLinkBody>>): Promise<ApiReply> => {
    const link = await ctx.deps.store.q.links.getOwned(ctx.partner.id, ctx.params.id ?? "");
    if (!link) fail("payment_link_not_found");
    const before = await ctx.deps.store.q.linkCheckout.latestCode(link.id);
    const end = await buyer().payLink(link.token, toCard(ctx.deps, ctx.body), ctx.body.installment ?? 1, ctx.body.otp ?? SANDBOX_OTP);
    const code = await ctx.deps.store.q.linkCheckout.latestCode(link.id);
    // The link took no new payment because it is no longer payable: the API's code for its state.
    const closed = LINK_CLOSED[(await ctx.deps.store.q.links.getOwned(ctx.partner.id, link.id))?.status ?? ""];
    if (end.stage === "refused" && code === before && closed) fail(closed);
    if (code === null)
      fail(
        end.stage === "refused" && end.code !== null && end.code in ERROR_CATALOG ? (end.code as ErrorCode) : "validation_error",
        "the link took no payment",
      );
    return reply(ctx, code, end);
  };
