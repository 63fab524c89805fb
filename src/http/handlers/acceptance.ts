import { acceptanceOf } from "../../domain/acceptance/service";
import { toAcceptanceJson } from "../../domain/acceptance/view";
import type { ApiContext, ApiReply } from "../endpoint";

/** interface 4.12 */
export function getAcceptance(ctx: ApiContext): ApiReply {
  const now = ctx.deps.clock.nowMs();
  return { status: 200, body: toAcceptanceJson(acceptanceOf(ctx.deps.store.q, ctx.partner, now), now) };
}
