import type { H3, H3Event } from "h3";
import { wallNowMs } from "../clock";
import type { Log } from "../deps";

/** What one answered request looks like to the log and the metrics (docs/operating.md). */
export type RequestRecord = { method: string; route: string; status: number; ms: number; traceId: string | null; partnerId: string | null };

/** The context key the API pipeline sets once a key authenticated, so the request line can name the partner. */
export const PARTNER_CONTEXT_KEY = "kasaPartnerId";

/**
 * Observes every request once it is answered: the route is the matched pattern (never the raw path
 * or query, which may carry tokens), the traceId the one the response carries.
 */
export function observeRequests(app: H3, observers: Array<(r: RequestRecord) => void>): void {
  app.use(async (event: H3Event, next) => {
    const started = wallNowMs();
    const res = await next();
    const record: RequestRecord = {
      method: event.req.method,
      route: routeOf(event),
      status: res instanceof Response ? res.status : (event.res.status ?? 200),
      ms: wallNowMs() - started,
      traceId: res instanceof Response ? res.headers.get("x-trace-id") : null,
      partnerId: ((event.context as Record<string, unknown>)[PARTNER_CONTEXT_KEY] as string | undefined) ?? null,
    };
    for (const observe of observers) observe(record);
    return res;
  });
}

function routeOf(event: H3Event): string {
  const route = (event.context as { matchedRoute?: { route?: string } }).matchedRoute?.route;
  return route === undefined || route === "/**" ? "unmatched" : route;
}

/** docs/operating.md: one log line per request. */
export const logRequest = (log: Log) => (r: RequestRecord) => log.info("request", r);

/**
 * docs/operating.md shutdown: how many requests are being answered now, and a wait for none (or the
 * deadline). The server's own close stops accepting but does not wait for requests already read
 * from a connection, and the store must not close under them.
 */
export function trackInFlight(app: H3): { readonly count: number; idle(deadlineMs: number): Promise<boolean> } {
  let count = 0;
  let wake: (() => void) | undefined;
  app.use(async (_event: H3Event, next) => {
    count += 1;
    try {
      return await next();
    } finally {
      count -= 1;
      if (count === 0) wake?.();
    }
  });
  return {
    get count() {
      return count;
    },
    idle(deadlineMs) {
      if (count === 0) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), deadlineMs);
        wake = () => {
          clearTimeout(timer);
          wake = undefined;
          resolve(true);
        };
      });
    },
  };
}
