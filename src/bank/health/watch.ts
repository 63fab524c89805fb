import type { BankGateway, RefundResult } from "../gateway";
import type { BankCall } from "../instrument";
import { outcomeOf } from "../instrument";
import type { CallOutcome, ConnectionHealth } from "./breaker";
import type { Outages } from "./outages";

// One connection's view of its bank (docs/operating.md, Health): every call's technical outcome
// goes to that connection's breaker, and during a sandbox outage the calls that reach the bank
// fail technically without reaching it. A bank without settings serves all its connections with
// one adapter, so this wrapper is per connection, around the shared adapter.

export interface WatchEnv {
  health: ConnectionHealth;
  outages: Outages;
  /** Real time (the outage's end is real time); the service clock is read from each call's input. */
  realNowMs: () => number;
  /** Told the calls an outage answered, as `instrument` tells the real ones (the metrics). */
  report: (call: BankCall) => void;
}

const OUTAGE = "sandbox outage: the bank is unreachable";

type Rule = {
  /** What the breaker makes of an answer: null counts as neither. A thrown error is always a failure. */
  judge(result: never): CallOutcome | null;
  /** The answer during an outage (`waitMs`: real time until it ends); absent: the call passes through. */
  outage?(input: never, waitMs: number): unknown;
};

const captureRule: Rule = {
  judge: (r: { approved: boolean | null }) => (r.approved === null ? "failure" : "success"),
  outage: () => ({ approved: null, detail: OUTAGE }),
};

// A pending refund says nothing of the bank's health (it may be the bank's normal answer); during
// an outage the refund stays pending and is asked about again just after the outage ends.
const refundRule: Rule = {
  judge: (r: RefundResult) => (r.status === "pending" ? null : "success"),
  outage: (input: { nowMs: number; refundReference?: string }, waitMs): RefundResult => ({
    status: "pending",
    procReturnCode: null,
    authCode: null,
    errMsg: OUTAGE,
    bankReference: input.refundReference ?? null,
    nextCheckAtMs: input.nowMs + Math.max(1000, waitMs),
  }),
};

/**
 * Operations not listed are neither judged nor failed by an outage. verifyCallback checks what the
 * buyer's browser posted: a forged callback must never close a breaker, and it is no call to the
 * bank. refundMarker passes an outage through (nothing is sent when it answers null).
 */
const RULES: Partial<Record<keyof BankGateway, Rule>> = {
  start3d: {
    judge: (r: { kind: string }) => (r.kind === "unavailable" ? "failure" : "success"),
    outage: () => ({ kind: "unavailable", detail: OUTAGE }),
  },
  capture: captureRule,
  captureStatus: captureRule,
  void: refundRule,
  refund: refundRule,
  refundStatus: refundRule,
  refundMarker: { judge: (r: string | null) => (r === null ? "failure" : null) },
  payout: { judge: () => "success" },
};

/**
 * The gateway of connection `connectionId`. A proxy, so that what a test changes on the shared
 * adapter later (a replaced method) is what this connection calls.
 */
export function watchConnection<G extends BankGateway>(gateway: G, connectionId: string, env: WatchEnv): G {
  const wrappers = new Map<string, { original: unknown; wrapper: unknown }>();

  async function call(operation: string, rule: Rule, original: (...a: unknown[]) => Promise<unknown>, args: unknown[]) {
    const until = rule.outage ? env.outages.until(connectionId) : null;
    if (until !== null && rule.outage) {
      const result = rule.outage(args[0] as never, until - env.realNowMs());
      env.report({ bank: gateway.bank, operation, outcome: outcomeOf(operation, result), ms: 0 });
      judge(rule, result);
      return result;
    }
    let result: unknown;
    try {
      result = await original.apply(gateway, args);
    } catch (error) {
      env.health.record(connectionId, "failure");
      throw error;
    }
    judge(rule, result);
    return result;
  }

  function judge(rule: Rule, result: unknown): void {
    const outcome = rule.judge(result as never);
    if (outcome !== null) env.health.record(connectionId, outcome);
  }

  return new Proxy(gateway, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      const rule = typeof property === "string" ? RULES[property as keyof BankGateway] : undefined;
      if (!rule || typeof value !== "function") return value;
      const hit = wrappers.get(property as string);
      if (hit?.original === value) return hit.wrapper;
      const wrapper = (...args: unknown[]) => call(property as string, rule, value as (...a: unknown[]) => Promise<unknown>, args);
      wrappers.set(property as string, { original: value, wrapper });
      return wrapper;
    },
  });
}
