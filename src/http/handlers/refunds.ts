import type { RefundEndpoint } from "../../domain/refunds/rules";
import type { RefundBody } from "../../domain/refunds/schema";
import { createRefund, refundOf } from "../../domain/refunds/service";
import { toRefundCreatedJson, toRefundJson } from "../../domain/refunds/view";
import type { ApiContext, ApiReply } from "../endpoint";

/** docs/contract.md, Refunds: `…/refunds` (auto), `…/refunds/void`, `…/refunds/credit`; 201 on create. */
export const postRefund =
  (endpoint: RefundEndpoint) =>
  async (ctx: ApiContext<RefundBody>): Promise<ApiReply> => {
    const refund = await createRefund(ctx.deps, ctx.partner, ctx.params.paymentCode ?? "", endpoint, ctx.body);
    return { status: 201, body: toRefundCreatedJson(refund) };
  };

/** docs/contract.md, The refund record */
export async function getRefund(ctx: ApiContext): Promise<ApiReply> {
  const refund = await refundOf(ctx.deps, ctx.partner.id, ctx.params.paymentCode ?? "", ctx.params.refundId ?? "");
  return { status: 200, body: toRefundJson(refund) };
}
