import { wallNowMs } from "../clock";
import type { BankGateway } from "./gateway";

// docs/operating.md metrics: every bank call by bank, operation and outcome, with its latency. The
// adapter is wrapped once, where the registry hands it out; its own code knows nothing of metrics.

export type BankCall = { bank: string; operation: string; outcome: string; ms: number };

type Outcome<R> = (result: R) => string;

const approval = (r: { approved: boolean | null }) => (r.approved === null ? "unknown" : r.approved ? "approved" : "declined");
const status = (r: { status: string }) => r.status;

const OUTCOMES: {
  [K in keyof BankGateway]?: Outcome<Awaited<ReturnType<NonNullable<Extract<BankGateway[K], (...a: never[]) => unknown>>>>>;
} = {
  start3d: (r) => r.kind,
  verifyCallback: (r) => (r.ok ? (r.authenticated ? "authenticated" : "not_authenticated") : "refused"),
  capture: approval,
  captureStatus: approval,
  void: status,
  refund: status,
  refundStatus: status,
  payout: status,
  refundMarker: (r) => (r === null ? "unavailable" : "recorded"),
};

/** The metrics' outcome label of an operation's answer (what instrument reports for it). */
export function outcomeOf(operation: string, result: unknown): string {
  const of = (OUTCOMES as Record<string, ((r: unknown) => string) | undefined>)[operation];
  return of ? of(result) : "answered";
}

export function instrument<G extends BankGateway>(gateway: G, report: (call: BankCall) => void): G {
  const wrapped = { ...gateway } as unknown as Record<string, unknown>;
  for (const [operation, outcomeOf] of Object.entries(OUTCOMES)) {
    const original = (gateway as unknown as Record<string, unknown>)[operation];
    if (typeof original !== "function") continue;
    wrapped[operation] = async (...args: unknown[]) => {
      const started = wallNowMs();
      try {
        const result = await original.apply(gateway, args);
        report({ bank: gateway.bank, operation, outcome: (outcomeOf as (r: unknown) => string)(result), ms: wallNowMs() - started });
        return result;
      } catch (error) {
        report({ bank: gateway.bank, operation, outcome: "error", ms: wallNowMs() - started });
        throw error;
      }
    };
  }
  return wrapped as G;
}
