import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_BINS, TEST_CARDS } from "../../src/bank/test-cards";
import { ManualClock } from "../../src/clock";
import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import { createRateLimiter } from "../../src/domain/rate-limits/limiter";
import { MINUTE_MS } from "../../src/limits";
import { memoryLog } from "../../src/log";
import { createService } from "../../src/compose";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import type { Store } from "../../src/store/store";
import { TEST_KEY, TEST_SEED } from "../support/fixtures";
import { T0, type Harness, type Reply } from "../support/harness";
import { answerAcs, createPayment, CVV, handOff } from "./payments-flow";

// Issue 7 / product 5: PAN, expiry and CVV are never written to the database (not even the WAL)
// or the logs. Every test card goes through the whole flow against a FILE database, with the bad
// inputs that take other code paths (bad card data, declines, wrong codes, forged callbacks);
// then the raw bytes of the database and its WAL, and every log line, are searched.

const dir = mkdtempSync(join(tmpdir(), "kasa-card-data-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The parts of the test harness the payment helpers use, over a store on disk. */
async function fileHarness(path: string): Promise<{ h: Harness; store: Store; lines: string[] }> {
  const store = await openStore(path);
  const clock = new ManualClock(T0);
  const log = memoryLog();
  const config = { mode: "serve" as const, baseUrl: "http://kasa.test", trustProxy: true, allowPrivateWebhooks: true };
  const runtime = await createService({ store, clock, config, log, rateLimiter: createRateLimiter({ limits: "off" }) });
  let n = 0;
  await applySeed(store, parseSeed({ ...TEST_SEED, bins: DEMO_BINS.map((b) => ({ ...b })) }), T0, () => `key_file${++n}`);
  const request = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const headers: Record<string, string> = { authorization: `Bearer ${TEST_KEY}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await runtime.app.request(`http://kasa.test${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: text.startsWith("{") ? JSON.parse(text) : undefined };
  };
  const h = {
    store,
    clock,
    log,
    runtime,
    deps: runtime.deps,
    post: (p: string, b?: unknown) => request("POST", p, b),
    get: (p: string) => request("GET", p),
    async advance(ms: number) {
      clock.advance(ms);
      await runtime.deps.timers.runDue();
    },
  } as unknown as Harness;
  return { h, store, lines: log.lines };
}

/** The file's bytes as text, one char per byte, so any ASCII run is found wherever it sits. */
const bytesOf = (path: string): string => (existsSync(path) ? readFileSync(path).toString("latin1") : "");

/** A CVV is three digits: only a standalone run counts, not "857" inside a longer number. */
const hasStandalone = (text: string, digits: string): boolean => new RegExp(`(?<![0-9])${digits}(?![0-9])`).test(text);

describe("product 5 card data never stored or logged (file database, WAL included)", () => {
  it("every test card, and the error paths, leave no PAN and no CVV behind", async () => {
    const path = join(dir, "kasa.db");
    const { h, store, lines } = await fileHarness(path);
    for (const card of TEST_CARDS) {
      const c = await createPayment(h, { installment: 1 });
      expect(c.status).toBe(201);
      const ref = c.json.paymentRef as string;
      await handOff(h, ref, card.pan, { cv2: "12" }); // bad card data
      await handOff(h, ref, card.pan, { expireMonth: "01", expireYear: "20" }); // expired card
      const acs = await handOff(h, ref, card.pan);
      if (acs.page?.status === 200 && acs.page.forms[0]) {
        const form = acs.page.forms[0];
        await h.runtime.app.request(form.action, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ token: "forged.token", otp: "123456", action: "confirm" }).toString(),
        });
        await answerAcs(h, acs, card.pan === "4000002200000006" ? "000000" : "123456");
      }
    }
    // A payment whose 3D start is abandoned and then expires (its attempt stays open until then).
    const abandoned = await createPayment(h);
    await handOff(h, abandoned.json.paymentRef, TEST_CARDS[0]!.pan);
    await h.advance(30 * MINUTE_MS);

    const wal = `${path}-wal`;
    expect(existsSync(wal)).toBe(true);
    // Request lines (product 19) carry a duration and a random traceId: "ms":857 under load or a
    // traceId with "857" in it is not a CVV, so those values are blanked before the scan.
    const scanned = { db: bytesOf(path), wal: bytesOf(wal), log: lines.join("\n").replace(/"(ms|traceId)":("[^"]*"|\d+)/g, '"$1":_') };
    expect(scanned.db.length + scanned.wal.length).toBeGreaterThan(10_000);
    // The scan can see what is there: masked PANs were written.
    expect(scanned.db + scanned.wal).toContain("400000******0009");
    for (const card of TEST_CARDS) {
      for (const [where, text] of Object.entries(scanned)) {
        expect(text.includes(card.pan), `${card.pan} in ${where}`).toBe(false);
      }
    }
    for (const [where, text] of Object.entries(scanned)) expect(hasStandalone(text, CVV), `CVV in ${where}`).toBe(false);

    await store.close();
    // After the checkpoint on close, the main file still holds none of it.
    const after = bytesOf(path);
    for (const card of TEST_CARDS) expect(after.includes(card.pan)).toBe(false);
    expect(hasStandalone(after, CVV)).toBe(false);
  });
});
