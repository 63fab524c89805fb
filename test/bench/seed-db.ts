import { spawn } from "node:child_process";
import { copyFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startOfIstanbulMonthMs } from "../../src/domain/checks/istanbul-time";
import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import { createRateLimiter } from "../../src/domain/rate-limits/limiter";
import { runDueDayEnds } from "../../src/domain/settlement/dayend";
import { createService } from "../../src/compose";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import type { Store } from "../../src/store/store";
import type { LinkRow } from "../../src/store/rows";
import { seedPanelUser, seedPanelYear } from "./seed-panel";
import { freshDatabase } from "../support/pg-cluster";

// The databases the benchmarks start kasa on, written through kasa's own store operations before
// the server starts: a partner, a terminal on a bank connection with the limits every real
// virtual POS has, the BIN of the approved test card, and as many links, payments or due webhook
// deliveries as a scenario needs.

export const BENCH_KEY = "kasa_sk_bench_000000000000000000000000000000000";
export const PARTNER = "ptn_bench";
export const TERMINAL = "T-1001";
/** A router over T-1001 and two more members, each on a connection of its own (docs/routing.md). */
export const ROUTER = "T-9001";
/** Eight terminals, each on a connection of its own (vpos-1..8): creates spread over them. */
export const SPREAD = [TERMINAL, "T-1002", "T-1003", "T-1004", "T-1005", "T-1006", "T-1007", "T-1008"];
const ROWS_PER_UNIT = 5_000;
const DAY_MS = 86_400_000;

export type BenchSeed = {
  /** Open links of the partner, created over the last days, expiring over the next week. */
  links?: number;
  /** Payments on the bench connection made this month (issue 17: cost must not grow with them). */
  payments?: number;
  /** Webhook deliveries due now, to `webhookUrl`. */
  deliveries?: number;
  webhookUrl?: string;
  /** Payments over the last year, each with its card attempt, and a panel user (issue 38's dashboard). */
  panelYear?: number;
};

function seedFile(webhookUrl: string | null): SeedFile {
  return parseSeed({
    psps: [{ id: "psp-1", active: true }],
    connections: SPREAD.map((_, i) => `vpos-${i + 1}`).map((id) => ({
      id,
      psp: "psp-1",
      bank: "sim",
      active: true,
      acceptsForeignCards: true,
      limits: { perTxMax: 100_000_000, dailyMax: 1e15, weeklyMax: 1e15, monthlyMax: 1e15, window: { minutes: 10, maxAmount: 1e15 } },
    })),
    partners: [
      {
        id: PARTNER,
        name: "Bench Shop",
        status: "active",
        apiKeys: [BENCH_KEY],
        rateLimitMultiplier: 1,
        webhook: webhookUrl === null ? null : { url: webhookUrl, secret: "whsec_bench" },
        payoutAccount: "TR000000000000000000000000",
      },
    ],
    terminals: [
      ...SPREAD.map((id, i) => ({
        id,
        partner: PARTNER,
        connection: `vpos-${i + 1}`,
        active: true,
        commissionBasis: "gross",
        installments: [1, 2, 3, 6, 9, 12],
        infrastructure: "standard",
        directCollection: false,
        valueDays: 1,
        bank: "Demo Bank A",
        rates: [
          { count: 1, rateBps: 199 },
          { count: 3, rateBps: 450 },
          { count: 6, rateBps: 800 },
        ],
      })),
      {
        id: ROUTER,
        partner: PARTNER,
        active: true,
        commissionBasis: "gross",
        routing: { members: [TERMINAL, "T-1002", "T-1003"], order: "rules", onUsInstallments: true },
      },
    ],
    bins: [{ bin: "40000011", brand: "bonus", family: "credit", bank: "Demo Bank A", installments: true }],
  }) as SeedFile;
}

async function inUnits(
  store: Store,
  count: number,
  write: (tx: Parameters<Parameters<Store["write"]>[0]>[0], i: number) => Promise<unknown>,
) {
  for (let start = 0; start < count; start += ROWS_PER_UNIT) {
    await store.write(async (tx) => {
      for (let i = start; i < Math.min(count, start + ROWS_PER_UNIT); i += 1) await write(tx, i);
    });
  }
}

/** A database file at `dir/name.db` seeded for one scenario. */
const quietRuntime = async (store: Store, nowMs: number) =>
  await createService({
    store,
    clock: { nowMs: () => nowMs },
    config: { mode: "serve", baseUrl: "http://127.0.0.1:9", trustProxy: false, allowPrivateWebhooks: false },
    log: { info: () => {}, warn: () => {}, error: () => {} },
    rateLimiter: createRateLimiter({ limits: "off" }),
  });

/** The `i`th of the `count` open links of the bench's partner: created over the last days, expiring over the next week. */
export function benchLink(i: number, count: number, nowMs: number): LinkRow {
  const pad = String(i).padStart(12, "0");
  return {
    id: `pl_bench${pad}`,
    partnerId: PARTNER,
    token: `tok_bench_${pad}_aaaaaaaaaaaa`,
    partnerReference: i + 1,
    terminalId: TERMINAL,
    status: "pending",
    amount: 10_000 + (i % 1000),
    shareBps: 0,
    description: `Order ${i}`,
    redirectUrl: null,
    allowedCounts: null,
    items: null,
    payerName: null,
    attemptSeq: 0,
    firstOpenedAtMs: null,
    lastOpenedAtMs: null,
    expiresAtMs: nowMs + 60_000 + Math.floor((i / Math.max(1, count)) * 7 * DAY_MS),
    createdAtMs: nowMs - 3 * DAY_MS + i,
    updatedAtMs: nowMs - 3 * DAY_MS + i,
  };
}

export async function seedDb(dir: string, name: string, nowMs: number, s: BenchSeed = {}): Promise<string> {
  const path = join(dir, `${name}.db`);
  const store = await openStore(path);
  await applySeed(store, seedFile(s.webhookUrl ?? null), nowMs, () => "key_bench");
  const pad = (i: number) => String(i).padStart(12, "0");
  const links = s.links ?? 0;
  await inUnits(store, links, async (tx, i) => await tx.links.insert(benchLink(i, links, nowMs)));
  if ((s.links ?? 0) > 0) await store.write(async (tx) => await tx.partners.nextLinkReference(PARTNER));
  const monthStartMs = startOfIstanbulMonthMs(nowMs);
  await inUnits(store, s.payments ?? 0, async (tx, i) => {
    const createdAtMs = Math.min(nowMs - 1_000, monthStartMs + Math.floor((i / Math.max(1, s.payments ?? 1)) * (nowMs - monthStartMs)));
    await tx.payments.insert({
      code: `pay_bench${pad(i)}`,
      partnerId: PARTNER,
      terminalId: TERMINAL,
      connectionId: "vpos-1",
      partnerTxCode: `seed-${i}`,
      channel: "api",
      linkId: null,
      amount: 10_000,
      principal: 10_000,
      currency: "TRY",
      installment: 1,
      description: null,
      returnUrl: "http://127.0.0.1:9/return",
      paymentRef: `ref_bench${pad(i)}`,
      expiresAtMs: createdAtMs + 1_800_000,
      createdAtMs,
    });
    // Captured, as most of a month's payments are: still counted by the limits, no expiry timer.
    await tx.payments.markCaptured(
      `pay_bench${pad(i)}`,
      ["initiated"],
      {
        commissionAmount: 199,
        netToPartner: 9_801,
        expectedValueDate: "2026-12-01",
        bankReference: `b${i}`,
        authCode: "000000",
      },
      createdAtMs,
    );
  });
  if (s.panelYear !== undefined) await seedPanelYear(store, nowMs, s.panelYear, PARTNER, [TERMINAL, "T-1002"]);
  // A server that ran all month ran its day ends too: run them here, so the measured server starts
  // with nothing to catch up (a first start would settle the whole month inside the measurement).
  if ((s.payments ?? 0) > 0 || s.panelYear !== undefined) {
    const { deps } = await quietRuntime(store, nowMs);
    await runDueDayEnds(deps);
    if (s.panelYear !== undefined) await seedPanelUser(deps, PARTNER);
  }
  await inUnits(
    store,
    s.deliveries ?? 0,
    async (tx, i) =>
      await tx.webhooks.insert({
        id: `evt_bench${pad(i)}`,
        partnerId: PARTNER,
        type: "payment.captured",
        occurredAtMs: nowMs - 1_000,
        body: JSON.stringify({
          id: `evt_bench${pad(i)}`,
          type: "payment.captured",
          occurredAt: new Date(nowMs).toISOString(),
          data: { paymentCode: `pay_bench${pad(i)}` },
        }),
      }),
  );
  await store.close();
  return path;
}

/** Seeded databases of this process, by directory, clock and seed, each seeded only once. */
const pristine = new Map<string, string>();

/**
 * A fresh copy of a database seeded for `seed`: the binaries a run compares each start on a
 * byte-identical file that no server has opened yet, and a month of payments is seeded once per
 * run rather than once per binary. The WAL is copied too in case the seeding left one behind.
 * Scenarios run one at a time, so the cache holds paths, never a seeding in progress.
 */
export async function seededCopy(dir: string, nowMs: number, seed: BenchSeed): Promise<string> {
  const key = JSON.stringify([dir, nowMs, seed]);
  let from = pristine.get(key);
  if (from === undefined) {
    from = await seedDb(dir, `seed-${pristine.size}`, nowMs, seed);
    pristine.set(key, from);
  }
  const path = join(dir, `db-${Math.random().toString(36).slice(2)}.db`);
  copyFileSync(from, path);
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${path}-wal`);
  return path;
}

/**
 * A new database on the run's PostgreSQL cluster holding exactly what the seeded SQLite file `from`
 * holds, copied by this tree's own `kasa migrate-to-postgres` (batched, one transaction, counts
 * checked): both stores start from the same rows, and seeding costs a copy, not a round trip per
 * row. Copied by the binary the scenario then runs (`binary`): a base binary builds the PostgreSQL
 * schema it was built with (a newer one can hold what it cannot replace, e.g. issue 37's deferred
 * metric triggers), from a file stamped with its SQLite schema version (base-fit.ts).
 */
export async function postgresCopy(clusterUrl: string, from: string, binary: string): Promise<string> {
  const { url } = await freshDatabase(clusterUrl);
  const { code, output } = await new Promise<{ code: number | null; output: string }>((done, fail) => {
    const child = spawn(binary, ["migrate-to-postgres", "--from", from, "--to", url], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += String(d)));
    child.stderr.on("data", (d) => (output += String(d)));
    child.on("error", fail);
    child.on("close", (code) => done({ code, output }));
  });
  if (code !== 0) throw new Error(`kasa migrate-to-postgres --from ${from} --to ${url} failed:\n${output}`);
  return url;
}

/** A `--limits` file raising every budget to the most the file allows (product 12: raised, never off). */
export function raisedLimitsFile(dir: string, names: readonly string[], file = "limits.json"): string {
  const path = join(dir, file);
  writeFileSync(path, JSON.stringify(Object.fromEntries(names.map((n) => [n, 10_000_000]))));
  return path;
}
