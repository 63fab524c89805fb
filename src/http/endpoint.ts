import type { H3Event } from "h3";
import type * as v from "valibot";
import type { Deps } from "../deps";
import type { BudgetName } from "../domain/rate-limits/budgets";
import { ApiError, fail, isApiError } from "../errors";
import { authenticate } from "./auth";
import { callerIpKey } from "./client-ip";
import { errorResponse, internalErrorResponse, jsonResponse } from "./envelope";
import { checkedText, parseWith, readJsonBody } from "./read";
import { PARTNER_CONTEXT_KEY } from "./request-log";
import type { PartnerRow } from "../store/rows";

export type Method = "GET" | "POST" | "DELETE";

export type ApiContext<B = unknown> = {
  deps: Deps;
  traceId: string;
  partner: PartnerRow;
  keyId: string;
  ip: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: B;
};

export type ApiReply = { status: number; body: unknown; headers?: Record<string, string> };

export type ApiRoute = {
  method: Method;
  path: string;
  /** The pre-auth IP/platform gate of docs/contract.md#limits covers every API-key /v1 endpoint. */
  gate: boolean;
  /** Rate budgets checked all-or-nothing after the key (docs/contract.md#rate-limits names). */
  budgets: readonly BudgetName[];
  /** Seconds for Retry-After on a 429 of this route; null = no header (installment options). */
  retryAfterS: number | null;
  body?: v.GenericSchema;
  handle(ctx: ApiContext<never>): ApiReply | Promise<ApiReply>;
};

/** Which identity a budget counts against: the key, the source IP, the partner or the platform. */
function budgetKey(budget: BudgetName, ctx: { keyId: string; ip: string; partnerId: string }): string {
  if (budget === "gate.platform") return "platform";
  if (budget.endsWith(".key")) return ctx.keyId;
  if (budget.endsWith(".partner")) return ctx.partnerId;
  return ctx.ip;
}

const MULTIPLIED = /^payments\.create\./;

/**
 * The request pipeline of DESIGN.md: gate -> key -> budgets (429 before any read or write) ->
 * body shape (400) -> one domain call -> envelope. Anything that is not an ApiError is a bug:
 * logged with its stack, answered as a generic 500.
 */
export function endpoint(deps: Deps, route: ApiRoute) {
  return async (event: H3Event): Promise<Response> => {
    const traceId = deps.ids.traceId();
    try {
      const ip = callerIpKey(event, deps.config.trustProxy);
      const now = deps.clock.nowMs();
      const tooMany = (): never =>
        fail("rate_limited", undefined, route.retryAfterS === null ? {} : { "retry-after": String(route.retryAfterS) });
      if (route.gate) {
        const gate = [
          { budget: "gate.ip" as const, key: ip },
          { budget: "gate.platform" as const, key: "platform" },
        ];
        if (!deps.rateLimiter.tryAcquire(gate, now)) tooMany();
      }
      const caller = await authenticate(deps, event.req.headers.get("authorization"));
      (event.context as Record<string, unknown>)[PARTNER_CONTEXT_KEY] = caller.partner.id;
      const ids = { keyId: caller.key.id, ip, partnerId: caller.partner.id };
      const checks = route.budgets.map((budget) => ({
        budget,
        key: budgetKey(budget, ids),
        multiplier: MULTIPLIED.test(budget) ? caller.partner.rateLimitMultiplier : 1,
      }));
      if (checks.length > 0 && !deps.rateLimiter.tryAcquire(checks, now)) tooMany();
      const body = route.body ? parseWith(route.body, checkedText(await readJsonBody(event.req))) : undefined;
      const reply = await route.handle({
        deps,
        traceId,
        partner: caller.partner,
        keyId: caller.key.id,
        ip,
        params: routeParams(event),
        // Read only by the routes that take a query: the full URL parse it needs is left to them.
        get query() {
          return event.url.searchParams;
        },
        body: body as never,
      });
      return jsonResponse(reply.status, reply.body, traceId, reply.headers);
    } catch (error) {
      return toErrorResponse(deps, error, traceId, event);
    }
  };
}

/** docs/decisions.md, Hardening: every string of an API body is storable text before its schema reads it (400 naming the field). */

export function routeParams(event: H3Event): Record<string, string> {
  return ((event.context as { params?: Record<string, string> }).params ?? {}) as Record<string, string>;
}

export function toErrorResponse(deps: Deps, error: unknown, traceId: string, event: H3Event): Response {
  if (isApiError(error)) return errorResponse(error, traceId);
  deps.log.error("unhandled error", { traceId, method: event.req.method, path: event.url.pathname, error });
  return internalErrorResponse(traceId);
}

export { ApiError };
