import type { InstallmentOptionsBody, InstallmentOverviewBody } from "../../domain/installments/schema";
import { quoteOptions, quoteOverview } from "../../domain/installments/service";
import { toInstallmentOptionsJson } from "../../domain/installments/view";
import type { ApiContext, ApiReply } from "../endpoint";

// Interface 4.8 and 4.9. Reads only: no unit of work, nothing is written.

/** interface 4.8 */
export async function postInstallmentOptions(ctx: ApiContext<InstallmentOptionsBody>): Promise<ApiReply> {
  const { bin, terminalId, baseAmount, customerCommissionShareBps } = ctx.body;
  const quote = await quoteOptions(ctx.deps.store.q, ctx.partner, { terminalId, bin, baseAmount, shareBps: customerCommissionShareBps });
  return { status: 200, body: toInstallmentOptionsJson(quote) };
}

/** interface 4.9 */
export async function postInstallmentOverview(ctx: ApiContext<InstallmentOverviewBody>): Promise<ApiReply> {
  const { terminalId, baseAmount, customerCommissionShareBps } = ctx.body;
  const overview = await quoteOverview(ctx.deps.store.q, ctx.partner, { terminalId, baseAmount, shareBps: customerCommissionShareBps });
  return { status: 200, body: overview };
}
