import { acceptanceOf } from "../../domain/acceptance/service";
import { toAcceptanceJson } from "../../domain/acceptance/view";
import type { ApiContext, ApiReply } from "../endpoint";

/** docs/contract.md, Payment acceptance */
export async function getAcceptance(ctx: ApiContext): Promise<ApiReply> {
  const now = ctx.deps.clock.nowMs();
  return { status: 200, body: toAcceptanceJson(await acceptanceOf(ctx.deps.store.q, ctx.partner, now), now) };
}
