import { createApiPayment } from "../../domain/payments/create";
import { txCodeQuery, type CreatePaymentBody } from "../../domain/payments/schema";
import { paymentByCode, paymentByTxCode, refundSummariesOf } from "../../domain/payments/service";
import { toPaymentCreatedJson, toPaymentJson } from "../../domain/payments/view";
import type { ApiContext, ApiReply } from "../endpoint";
import { parseWith } from "../read";
import type { PaymentRow } from "../../store/rows-money";

/** docs/contract.md, Create a payment: 201 for a new payment, 200 for an idempotent replay. */
export async function createPayment(ctx: ApiContext<CreatePaymentBody>): Promise<ApiReply> {
  const { replay, payment } = await createApiPayment(ctx.deps, ctx.partner, ctx.body);
  return { status: replay ? 200 : 201, body: toPaymentCreatedJson(payment, replay, ctx.deps.config.baseUrl) };
}

/** docs/contract.md, Read a payment */
export async function getPaymentByTxCode(ctx: ApiContext): Promise<ApiReply> {
  const { partnerTxCode } = parseWith(txCodeQuery, { partnerTxCode: ctx.query.get("partnerTxCode") ?? undefined });
  return await recordReply(ctx, await paymentByTxCode(ctx.deps, ctx.partner.id, partnerTxCode));
}

/** docs/contract.md, Read a payment */
export async function getPayment(ctx: ApiContext): Promise<ApiReply> {
  return await recordReply(ctx, await paymentByCode(ctx.deps, ctx.partner.id, ctx.params.paymentCode ?? ""));
}

async function recordReply(ctx: ApiContext, payment: PaymentRow): Promise<ApiReply> {
  return { status: 200, body: toPaymentJson(payment, await refundSummariesOf(ctx.deps.store.q, payment.code)) };
}
