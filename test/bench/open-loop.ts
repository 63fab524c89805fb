// An open-loop load generator (issue 37): requests leave at a fixed rate whether or not earlier
// ones have answered, and each latency is measured from the request's SCHEDULED send time, not
// from when it actually left. A closed loop (wrk's 64 connections) waits for an answer before
// sending the next, so a stalled server also stops the clock that measures it (coordinated
// omission); here a stall shows as the whole queue of late requests it delayed.

export type OpenLoopResult = { sent: number; errors: number; p50Ms: number; p99Ms: number; achievedRps: number };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Sends `rate` requests a second for `seconds` (after `warmupSeconds` not measured); `request(i)`
 * makes the i-th request's fetch arguments. Every due request is sent as soon as the timer wakes,
 * so a late wake-up costs latency (measured), never rate.
 */
export async function openLoop(
  request: (i: number) => { url: string; init: RequestInit },
  rate: number,
  seconds: number,
  warmupSeconds = 1,
): Promise<OpenLoopResult> {
  const intervalMs = 1000 / rate;
  const total = Math.round(rate * (seconds + warmupSeconds));
  const warmup = Math.round(rate * warmupSeconds);
  const latencies: number[] = [];
  const pending: Promise<void>[] = [];
  let errors = 0;
  const start = performance.now() + 20;
  for (let i = 0; i < total; i++) {
    const scheduled = start + i * intervalMs;
    const wait = scheduled - performance.now();
    if (wait > 1) await sleep(wait);
    const { url, init } = request(i);
    pending.push(
      fetch(url, init).then(
        async (res) => {
          await res.arrayBuffer();
          if (!res.ok) errors += 1;
          if (i >= warmup) latencies.push(performance.now() - scheduled);
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  const sendEnd = performance.now();
  await Promise.all(pending);
  latencies.sort((a, b) => a - b);
  return {
    sent: total - warmup,
    errors,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    achievedRps: total / ((sendEnd - start) / 1000),
  };
}
