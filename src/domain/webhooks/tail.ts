import { pause } from "../../pause";
import type { Repos } from "../../store/store";
import { toIso } from "../../iso-time";
import type { TailAttempt, TailDelivery } from "../../store/rows";

// `kasa webhooks tail` (docs/contract.md, The sandbox): follows the outbox of a running server's database from
// another process, printing each new delivery when it is queued and each attempt when it is
// recorded. It polls by index; an attempt's row is written when the attempt ends, so attempts are
// re-read over a trailing window and the ones already printed are skipped.

export type TailLine =
  | { kind: "delivery"; id: string; partnerId: string; type: string; createdAt: string }
  | {
      kind: "attempt";
      deliveryId: string;
      partnerId: string;
      type: string;
      n: number;
      startedAt: string;
      outcome: string;
      httpStatus: number | null;
      latencyMs: number | null;
      error: string | null;
    };

export type TailOptions = { partnerId: string | null; signal: AbortSignal; emit: (line: TailLine) => void; intervalMs?: number };

/**
 * How far back each read looks: longer than an attempt can take (the 5 s receiver deadline) and
 * than a unit takes to commit. Each poll re-reads this much, so the tail is a tool for watching,
 * not for a firehose.
 */
const WINDOW_MS = 15_000;
/** Rows per read of a keyset walk. */
const PAGE = 1_000;
const POLL_MS = 250;

const toDeliveryLine = (d: TailDelivery): TailLine => ({
  kind: "delivery",
  id: d.id,
  partnerId: d.partnerId,
  type: d.type,
  createdAt: toIso(d.createdAtMs),
});
const toAttemptLine = (a: TailAttempt & { tailKey: string }): TailLine => ({
  kind: "attempt",
  deliveryId: a.deliveryId,
  partnerId: a.partnerId,
  type: a.type,
  n: a.n,
  startedAt: toIso(a.startedAtMs),
  outcome: a.outcome,
  httpStatus: a.httpStatus,
  latencyMs: a.latencyMs,
  error: a.error,
});

type Page<R> = (atMs: number, key: string) => Promise<R[]>;

/** Every row from `fromMs` on, page by page in (time, key) order. */
async function* walk<R>(page: Page<R>, fromMs: number, keyOf: (r: R) => string, atMs: (r: R) => number): AsyncGenerator<R> {
  let cursor = { atMs: fromMs - 1, key: "\uffff" };
  for (;;) {
    const rows = await page(cursor.atMs, cursor.key);
    yield* rows;
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    cursor = { atMs: atMs(last), key: keyOf(last) };
  }
}

/**
 * One kind of row followed over a trailing window: what was there at the start is only marked
 * seen; later reads print what is new and forget what fell out of the window.
 */
async function follower<R>(page: Page<R>, keyOf: (r: R) => string, atMs: (r: R) => number, startMs: number) {
  let newestMs = startMs;
  const seen = new Map<string, number>();
  for await (const r of walk(page, startMs - WINDOW_MS, keyOf, atMs)) seen.set(keyOf(r), atMs(r));
  return async (emit: (r: R) => void): Promise<void> => {
    const floorMs = newestMs - WINDOW_MS;
    for await (const r of walk(page, floorMs, keyOf, atMs)) {
      if (seen.has(keyOf(r))) continue;
      seen.set(keyOf(r), atMs(r));
      newestMs = Math.max(newestMs, atMs(r));
      emit(r);
    }
    for (const [key, ms] of seen) if (ms < floorMs) seen.delete(key);
  };
}

/** Runs until `signal` aborts; only what appears after the start is printed. */
export async function tailWebhooks(q: Repos, o: TailOptions): Promise<void> {
  const start = await q.webhookTail.tailStart();
  const deliveries = await follower(
    async (ms, key) => await q.webhookTail.deliveriesAfter(ms, key, o.partnerId, PAGE),
    (d) => d.id,
    (d) => d.createdAtMs,
    start.deliveryMs,
  );
  const attempts = await follower(
    async (ms, key) => await q.webhookTail.attemptsAfter(ms, key, o.partnerId, PAGE),
    (a) => a.tailKey,
    (a) => a.startedAtMs,
    start.attemptMs,
  );
  while (!o.signal.aborted) {
    await deliveries((d) => o.emit(toDeliveryLine(d)));
    await attempts((a) => o.emit(toAttemptLine(a)));
    await pause(o.intervalMs ?? POLL_MS, o.signal);
  }
}
