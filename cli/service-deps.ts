import { SandboxClock } from "../src/clock";
import { createDeps } from "../src/compose";
import type { Deps } from "../src/deps";
import { createRateLimiter } from "../src/domain/rate-limits/limiter";
import { createLog } from "../src/log";
import type { CliContext } from "./context";

/**
 * The service's dependencies for a CLI command that does a server's work without serving (day end,
 * reconciliation): the same banks (their secrets live in the database) and outbox as the server,
 * from the composition root, without the HTTP app. A sandbox database keeps the sandbox clock.
 */
export async function serviceDeps({ store, clock }: Pick<CliContext, "store" | "clock">, tag: string): Promise<Deps> {
  return await createDeps({
    store,
    clock,
    config: {
      mode: clock instanceof SandboxClock ? "sandbox" : "serve",
      baseUrl: "http://localhost",
      trustProxy: false,
      allowPrivateWebhooks: false,
    },
    log: createLog(tag),
    rateLimiter: createRateLimiter({ limits: "off" }),
  });
}
