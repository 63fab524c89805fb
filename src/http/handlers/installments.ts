import type { InstallmentOptionsBody, InstallmentOverviewBody } from "../../domain/installments/schema";
import { quoteOptions, quoteOverview } from "../../domain/installments/service";
import { toInstallmentOptionsJson } from "../../domain/installments/view";
import type { ApiContext, ApiReply } from "../endpoint";

// docs/contract.md, Options for a card / The overview. Reads only: no unit of work, nothing is written.

/** docs/contract.md, Options for a card */
export async function postInstallmentOptions(ctx: ApiContext<InstallmentOptionsBody>): Promise<ApiReply> {
  const { bin, terminalId, baseAmount, customerCommissionShareBps } = ctx.body;
  const quote = await quoteOptions(ctx.deps.store.q, ctx.partner, { terminalId, bin, baseAmount, shareBps: customerCommissionShareBps });
  return { status: 200, body: toInstallmentOptionsJson(quote) };
}

/** docs/contract.md, The overview */
export async function postInstallmentOverview(ctx: ApiContext<InstallmentOverviewBody>): Promise<ApiReply> {
  const { terminalId, baseAmount, customerCommissionShareBps } = ctx.body;
  const overview = await quoteOverview(ctx.deps.store.q, ctx.partner, { terminalId, baseAmount, shareBps: customerCommissionShareBps });
  return { status: 200, body: overview };
}
