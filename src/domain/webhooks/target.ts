/**
 * One attempt against the partner's CURRENT webhook settings (docs/contract.md, Webhooks): the URL and secret are
 * read at send time, so a partner who fixes a broken URL or rotates the secret is honoured by the
 * next retry, while the body bytes and the timestamp stay those stored with the outbox row.
 */
import type { Config } from "../../deps";
import { WEBHOOK_TIMEOUT_MS } from "../../limits";
import { sendDelivery, type FetchLike } from "./deliver";
import type { AttemptOutcome } from "./schedule";
import { deliveryHeaders } from "./sign";
import { pinnedFetch } from "./pinned-request";
import { checkWebhookTarget, type ResolvedAddress, type ResolveHost } from "./ssrf";
import type { DeliveryRow, PartnerRow } from "../../store/rows";

export type TargetOptions = {
  /** The receiver's deadline; tests shorten it, production keeps docs/contract.md#webhooks's 5 s. */
  timeoutMs?: number;
  fetchImpl?: FetchLike;
  resolve?: ResolveHost;
  /** How a request is pinned to the approved address (tests observe it; production uses node:http). */
  pin?: (address: ResolvedAddress) => FetchLike;
};

/** An attempt's result as stored; latency is null when nothing went over the network. */
export type AttemptResult = { outcome: AttemptOutcome; httpStatus: number | null; latencyMs: number | null; error: string | null };

export const NO_WEBHOOK_URL = "no webhook url";
export const NO_WEBHOOK_SECRET = "no webhook secret";

const notSent = (outcome: AttemptOutcome, error: string): AttemptResult => ({ outcome, httpStatus: null, latencyMs: null, error });

/** `serve` guards against SSRF unless started with --allow-private-webhooks; sandbox allows private targets. */
export function guardsTargets(config: Config): boolean {
  return config.mode === "serve" && !config.allowPrivateWebhooks;
}

export async function attemptDelivery(
  row: DeliveryRow,
  partner: PartnerRow | undefined,
  config: Config,
  options: TargetOptions,
): Promise<AttemptResult> {
  // The URL was removed after the event was queued: the partner opted out, so nothing will ever
  // be sent for this row; a permanent failure says so in `kasa webhooks show` (docs/contract.md, Webhooks).
  if (!partner?.webhookUrl) return notSent("permanent", NO_WEBHOOK_URL);
  if (!partner.webhookSecret) return notSent("permanent", NO_WEBHOOK_SECRET);
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  let fetchImpl = options.fetchImpl;
  if (guardsTargets(config)) {
    const checked = await checkTarget(partner.webhookUrl, timeoutMs, options.resolve);
    if ("outcome" in checked) return checked;
    // docs/decisions.md, Hardening: connect to the address just approved; a second name lookup could answer another.
    if (checked.address !== null) fetchImpl = (options.pin ?? pinnedFetch)(checked.address);
  }
  const headers = deliveryHeaders({
    body: row.body,
    secret: partner.webhookSecret,
    deliveryId: row.id,
    occurredAtMs: row.occurredAtMs,
  });
  const result = await sendDelivery({ url: partner.webhookUrl, body: row.body, headers, timeoutMs, fetchImpl });
  return { outcome: result.outcome, httpStatus: result.status, latencyMs: result.latencyMs, error: result.error };
}

/**
 * A blocked address is the partner's configuration, so it is permanent; a DNS failure may pass,
 * so it is retried like a connection error. The lookup gets its own deadline: a resolver that
 * hangs must not hold a delivery slot longer than a hanging receiver could.
 */
async function checkTarget(
  url: string,
  timeoutMs: number,
  resolve: ResolveHost | undefined,
): Promise<AttemptResult | { address: ResolvedAddress | null }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<AttemptResult>((done) => {
    timer = setTimeout(() => done(notSent("retry", `unresolvable: DNS lookup timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  const check = checkWebhookTarget(url, { allowPrivate: false, ...(resolve ? { resolve } : {}) }).then((result) =>
    result.ok
      ? { address: result.address }
      : notSent(result.reason === "unresolvable" ? "retry" : "permanent", `${result.reason}: ${result.message}`),
  );
  try {
    return await Promise.race([check, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
