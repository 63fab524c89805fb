import * as v from "valibot";
import { toIso } from "../../iso-time";
import { fail } from "../../errors";
import { SANDBOX_CLOCK_MAX_MS } from "../../limits";
import type { ApiContext, ApiReply } from "../endpoint";

const SAFE_SECONDS = Math.floor(Number.MAX_SAFE_INTEGER / 1000 / 2);

/** docs/contract.md, The sandbox: exactly one of advanceSeconds or to (checked in the handler, so messages name the field). */
export const moveClockBody = v.strictObject({
  advanceSeconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(SAFE_SECONDS))),
  to: v.optional(v.pipe(v.string(), v.isoTimestamp())),
});

export type SandboxClockControl = {
  nowMs(): number;
  /** Moves forward, persists the offset, runs everything now due; resolves when done. */
  moveTo(targetMs: number): Promise<void>;
};

export const getClock = (clock: SandboxClockControl) => (): ApiReply => ({ status: 200, body: { now: toIso(clock.nowMs()) } });

export const moveClock =
  (clock: SandboxClockControl) =>
  async (ctx: ApiContext<v.InferOutput<typeof moveClockBody>>): Promise<ApiReply> => {
    const { advanceSeconds, to } = ctx.body;
    if ((advanceSeconds === undefined) === (to === undefined)) fail("validation_error", "body: send exactly one of advanceSeconds or to");
    const now = clock.nowMs();
    const target = to !== undefined ? Date.parse(to) : now + advanceSeconds! * 1000;
    if (!Number.isFinite(target)) fail("validation_error", "to: not a valid date-time");
    // docs/decisions.md, Readings of the contract: a move backwards is 400.
    if (target < now) fail("validation_error", "to: the sandbox clock never moves back");
    // docs/decisions.md, Hardening: beyond year 9999 no date can be written as ISO 8601 (4-digit years), so nothing could answer.
    if (target > SANDBOX_CLOCK_MAX_MS)
      fail(
        "validation_error",
        `${to !== undefined ? "to" : "advanceSeconds"}: must not move the clock past ${toIso(SANDBOX_CLOCK_MAX_MS)}`,
      );
    await clock.moveTo(target);
    return { status: 200, body: { now: toIso(clock.nowMs()) } };
  };
