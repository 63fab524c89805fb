/**
 * One webhook delivery attempt over HTTP (docs/contract.md, Delivery and retry / Webhooks). The IO edge of the outbox:
 * it sends the stored bytes, classifies what came back and never throws, so the worker can store
 * the result and ask `planAfterAttempt` what happens next.
 */
import { WEBHOOK_ERROR_TEXT_MAX_CHARS, WEBHOOK_RESPONSE_READ_MAX_BYTES, WEBHOOK_TIMEOUT_MS } from "../../limits";
import type { AttemptOutcome } from "./schedule";

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

export interface SendDeliveryInput {
  url: string;
  /** The exact stored bytes; they are what the signature headers cover. */
  body: string;
  headers: Record<string, string>;
  timeoutMs?: number;
  fetchImpl?: FetchLike;
}

export interface DeliveryResult {
  outcome: AttemptOutcome;
  /** The HTTP status seen, or null when no response head arrived (timeout, connection error). */
  status: number | null;
  latencyMs: number;
  error: string | null;
}

type AttemptResult = Omit<DeliveryResult, "latencyMs">;

/** What the racing timer needs to know about an attempt that is still running. */
interface InFlight {
  status: number | null;
  reader: ReadableStreamDefaultReader<Uint8Array> | null;
}

export async function sendDelivery(input: SendDeliveryInput): Promise<DeliveryResult> {
  const startedAt = performance.now();
  const result = await attemptWithDeadline(input);
  return { ...result, latencyMs: Math.round(performance.now() - startedAt) };
}

async function attemptWithDeadline(input: SendDeliveryInput): Promise<AttemptResult> {
  const invalid = checkUrl(input.url);
  if (invalid !== null) return invalid;
  // A nonsensical timeout would either fire at once or never; fall back to the contract's 5 s.
  const timeoutMs =
    input.timeoutMs !== undefined && Number.isFinite(input.timeoutMs) && input.timeoutMs > 0 ? input.timeoutMs : WEBHOOK_TIMEOUT_MS;
  const controller = new AbortController();
  const inFlight: InFlight = { status: null, reader: null };
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The deadline is a race rather than only an abort signal, so that a fetch implementation that
  // ignores the signal (or a body stream that never ends) still cannot hold the worker past it.
  const deadline = new Promise<AttemptResult>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      inFlight.reader?.cancel().catch(ignore);
      resolve({ outcome: "retry", status: inFlight.status, error: `timeout after ${timeoutMs} ms` });
    }, timeoutMs);
  });
  const attempt = attemptOnce(input, controller.signal, inFlight).catch(
    (error: unknown): AttemptResult => ({ outcome: "retry", status: inFlight.status, error: describeError(error) }),
  );
  try {
    return await Promise.race([attempt, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function attemptOnce(input: SendDeliveryInput, signal: AbortSignal, inFlight: InFlight): Promise<AttemptResult> {
  const fetchImpl = input.fetchImpl ?? fetch;
  let response: Response;
  try {
    // Redirects are not followed (docs/contract.md, Webhooks): a receiver could otherwise bounce a signed
    // delivery to an internal address the SSRF check never saw.
    response = await fetchImpl(input.url, {
      method: "POST",
      headers: input.headers,
      body: input.body,
      redirect: "manual",
      signal,
    });
  } catch (error) {
    return { outcome: "retry", status: null, error: describeError(error) };
  }
  inFlight.status = response.status;
  const result = classifyResponse(response);
  if (result.outcome !== "delivered") {
    // Only a 2xx needs its body: nothing else changes the outcome, so free the connection now.
    response.body?.cancel().catch(ignore);
    return result;
  }
  try {
    await readBounded(response, inFlight);
  } catch (error) {
    return { outcome: "retry", status: response.status, error: `response body: ${describeError(error)}` };
  }
  return result;
}

function classifyResponse(response: Response): AttemptResult {
  const status = response.status;
  // Runtimes that follow the fetch spec strictly hide a manual redirect behind status 0.
  if (response.type === "opaqueredirect" || status === 0) {
    return { outcome: "permanent", status: null, error: "redirect not followed" };
  }
  if (status >= 200 && status < 300) return { outcome: "delivered", status, error: null };
  if (status >= 300 && status < 400) return { outcome: "permanent", status, error: `HTTP ${status} (redirect not followed)` };
  // 408 and 429 included: below 500 is the receiver's final word (docs/contract.md, Webhooks).
  if (status < 500) return { outcome: "permanent", status, error: `HTTP ${status}` };
  return { outcome: "retry", status, error: `HTTP ${status}` };
}

/**
 * A 2xx counts once its body has arrived (or its first few KiB have), within the deadline. The
 * rest is cancelled rather than drained, so a receiver answering megabytes costs us nothing.
 */
async function readBounded(response: Response, inFlight: InFlight): Promise<void> {
  if (response.body === null) return;
  const reader = response.body.getReader();
  inFlight.reader = reader;
  let received = 0;
  try {
    while (received < WEBHOOK_RESPONSE_READ_MAX_BYTES) {
      const chunk = await reader.read();
      if (chunk.done) return;
      received += chunk.value.byteLength;
    }
  } finally {
    inFlight.reader = null;
    reader.cancel().catch(ignore);
  }
}

function checkUrl(url: string): AttemptResult | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { outcome: "permanent", status: null, error: "invalid webhook url" };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return { outcome: "permanent", status: null, error: `unsupported webhook url scheme ${parsed.protocol}` };
  }
  return null;
}

/** Runtimes hide the useful part in different places: undici in `cause.code`, Bun in `code`. */
function describeError(error: unknown): string {
  const cause = isObject(error) ? error.cause : undefined;
  const code = codeOf(cause) ?? codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const text = code === null ? `connection error: ${message}` : `connection error: ${code}`;
  return text.slice(0, WEBHOOK_ERROR_TEXT_MAX_CHARS);
}

function codeOf(value: unknown): string | null {
  return isObject(value) && typeof value.code === "string" ? value.code : null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function ignore(): void {}
