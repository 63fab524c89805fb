import * as v from "valibot";
import { toIso } from "../../iso-time";
import { fail } from "../../errors";
import type { ApiContext, ApiReply } from "../endpoint";

// docs/operating.md, Health: `POST /sandbox/connections/{id}/outage` with `{"seconds": N}` (sandbox
// mode only; any key of the sandbox) makes that connection's bank calls fail technically for N
// seconds of real time, so an integrator can watch its breaker open and a router fail over; 0 ends
// it. Connections belong to the payment provider, not to a partner, so every key may name any.

/** One day: longer than any test or tour needs, short enough that a forgotten outage ends. */
export const SANDBOX_OUTAGE_MAX_S = 86_400;

export const outageBody = v.strictObject({
  seconds: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(SANDBOX_OUTAGE_MAX_S)),
});

export async function setOutage(ctx: ApiContext<v.InferOutput<typeof outageBody>>): Promise<ApiReply> {
  const id = ctx.params.id ?? "";
  const connection = await ctx.deps.store.q.catalog.connection(id);
  if (!connection) fail("not_found", `unknown connection ${id}`);
  // Through forConnection, so the connection's own breaker settings apply to the state answered.
  ctx.deps.banks.forConnection(connection);
  ctx.deps.banks.outages.set(connection.id, ctx.body.seconds);
  const until = ctx.deps.banks.outages.until(connection.id);
  return {
    status: 200,
    body: {
      connectionId: connection.id,
      outageUntil: until === null ? null : toIso(until),
      health: ctx.deps.banks.health.state(connection.id),
    },
  };
}
