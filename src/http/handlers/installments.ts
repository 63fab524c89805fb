import type { InstallmentOptionsBody, InstallmentOverviewBody } from "../../domain/installments/schema";
import { quoteOptions, quoteOverview } from "../../domain/installments/service";
import { toInstallmentOptionsJson } from "../../domain/installments/view";
import type { ApiContext, ApiReply } from "../endpoint";

// Interface 4.8 and 4.9. Reads only: no unit of work, nothing is written.

/** interface 4.8 */
export function postInstallmentOptions(ctx: ApiContext<InstallmentOptionsBody>): ApiReply {
  const { bin, terminalId, baseAmount, customerCommissionShareBps } = ctx.body;
  const quote = quoteOptions(ctx.deps.store.q, ctx.partner, { terminalId, bin, baseAmount, shareBps: customerCommissionShareBps });
  return { status: 200, body: toInstallmentOptionsJson(quote) };
}

/** interface 4.9 */
export function postInstallmentOverview(ctx: ApiContext<InstallmentOverviewBody>): ApiReply {
  const { terminalId, baseAmount, customerCommissionShareBps } = ctx.body;
  const overview = quoteOverview(ctx.deps.store.q, ctx.partner, { terminalId, baseAmount, shareBps: customerCommissionShareBps });
  return { status: 200, body: overview };
}
