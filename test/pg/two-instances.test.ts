import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { DEMO_BINS } from "../../src/bank/test-cards";
import { addDays, istanbulDate, nextIstanbulMidnightMs } from "../../src/domain/checks/istanbul-time";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { openStore } from "../../src/store/open";
import { freePort } from "../support/free-port";
import { api, type ApiAnswer, type KasaInstance, kasaJson, runKasa, startKasa, waitFor } from "../support/kasa-instances";
import { freshDatabase } from "../support/pg-cluster";

// Product 22 acceptance, on the real PostgreSQL with two kasa PROCESSES on one database:
// "Two kasa processes on one database under concurrent load: 50 identical creates give one
// payment; a connection limit is never exceeded; concurrent refunds never exceed the capture; day
// end and every webhook delivery happen exactly once; nothing is lost or doubled."
//
// Both processes run `kasa sandbox` (the simulated bank plays the buyer, the clock can be moved)
// with `--limits off`, on a database seeded first by `kasa seed`, so neither loads the demo data.
// Each clause has its own partner, terminal and codes, so each holds whatever the others did.
// The database is read through the operator CLI's --json listings, as an operator would.

const MINUTE_MS = 60_000;
const RETURN_URL = "https://shop.example/done";
const APPROVED_CARD = "4000001100000009";
/** Sandbox test card: 3D passes, the bank rejects the capture (insufficient funds): payment.failed. */
const CAPTURE_REJECTED_CARD = "4000009900000004";
const HOOK_SECRET = "whsec_two_instances_secret";

const KEY = {
  idem: "kasa_sk_idem_0000000000000000000000000001",
  limit: "kasa_sk_limit_000000000000000000000000002",
  refund: "kasa_sk_refund_00000000000000000000000003",
  dayend: "kasa_sk_dayend_00000000000000000000000004",
  hook: "kasa_sk_hook_0000000000000000000000000005",
} as const;

/** The daily maximum of the limited connection, and what each of clause 2's creates asks. */
const DAILY_MAX = 5_000;
const LIMIT_AMOUNT = 1_000;

const rates = [{ count: 1, rateBps: 199 }];
const partner = (id: string, key: string, extra: Partial<NonNullable<SeedFile["partners"]>[number]> = {}) => ({
  id,
  name: `Two instances ${id}`,
  status: "active" as const,
  apiKeys: [key],
  allowedRedirectHosts: ["shop.example"],
  cardAttemptLimit: 3,
  payoutAccount: "TR000000000000000000000099",
  ...extra,
});
const terminal = (id: string, partnerId: string, connection: string, valueDays = 1) => ({
  id,
  partner: partnerId,
  connection,
  commissionBasis: "gross" as const,
  installments: [1],
  valueDays,
  rates,
});

function seedFile(hookUrl: string): SeedFile {
  return {
    psps: [{ id: "psp-1", active: true }],
    connections: [
      { id: "vpos-1", psp: "psp-1", bank: "sim", active: true, acceptsForeignCards: true, acceptsDebit: true },
      {
        id: "vpos-limited",
        psp: "psp-1",
        bank: "sim",
        active: true,
        acceptsForeignCards: true,
        acceptsDebit: true,
        limits: { dailyMax: DAILY_MAX },
      },
    ],
    partners: [
      partner("ptn_idem", KEY.idem),
      partner("ptn_limit", KEY.limit),
      partner("ptn_refund", KEY.refund),
      partner("ptn_dayend", KEY.dayend),
      // Value date 30 days out: clause 5's clock move never makes a payout (and its webhook) due.
      partner("ptn_hook", KEY.hook, { webhook: { url: hookUrl, secret: HOOK_SECRET } }),
    ],
    terminals: [
      terminal("T-IDEM", "ptn_idem", "vpos-1"),
      terminal("T-LIMIT", "ptn_limit", "vpos-limited"),
      terminal("T-REFUND", "ptn_refund", "vpos-1"),
      terminal("T-DAYEND", "ptn_dayend", "vpos-1"),
      terminal("T-HOOK", "ptn_hook", "vpos-1", 30),
    ],
    bins: DEMO_BINS.map((b) => ({ ...b })),
  };
}

/** One webhook the receiver got: the delivery id of its header and of its body, its type. */
type Received = { headerId: string | null; bodyId: string | null; type: string | null; path: string };

function startReceiver(port: number): Promise<{ server: Server; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on("end", () => {
      let body: { id?: string; type?: string } = {};
      try {
        body = JSON.parse(raw) as typeof body;
      } catch {
        body = {};
      }
      const header = req.headers["x-service-delivery-id"];
      received.push({
        headerId: typeof header === "string" ? header : null,
        bodyId: body.id ?? null,
        type: body.type ?? null,
        path: req.url ?? "",
      });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve({ server, received }));
  });
}

type PaymentListJson = { paymentCode: string; partnerTxCode: string; status: string; amount: number; netToPartner: number | null };
type PaymentShowJson = PaymentListJson & {
  refundedAmount: number;
  payoutBatchId: string | null;
  settledDay: string | null;
  refunds: { refundId: string; status: string; amount: number; method: string }[];
};
type PayoutJson = { payoutBatchId: string; partnerId: string; day: string; amount: number; status: string };
type PayoutShowJson = PayoutJson & { payments: PaymentListJson[]; refunds: { refundId: string; amount: number }[] };
type DeliveryJson = { id: string; partnerId: string; type: string; status: string; attempts: number };
type DayEndReportJson = { day: string; ran: boolean; settled: number; payouts: PayoutJson[] };

let db: { url: string; drop(): Promise<void> } | undefined;
let seedDir: string | undefined;
let receiver: { server: Server; received: Received[] } | undefined;
let a: KasaInstance;
let b: KasaInstance;
const instances: KasaInstance[] = [];

const url = () => db!.url;
const both = () => [a, b] as const;
/** Request i goes to process A when even, B when odd. */
const pick = (i: number) => (i % 2 === 0 ? a : b);

beforeAll(async () => {
  db = await freshDatabase(inject("pgUrl"));
  receiver = await startReceiver(await freePort());
  const hookPort = (receiver.server.address() as { port: number }).port;
  seedDir = mkdtempSync(join(tmpdir(), "kasa-two-"));
  const seedPath = join(seedDir, "seed.json");
  writeFileSync(seedPath, JSON.stringify(seedFile(`http://127.0.0.1:${hookPort}/hooks`)));
  const seeded = await runKasa(["seed", seedPath, "--db", url()]);
  expect(seeded.code, `${seeded.stderr}\n${seeded.stdout}`).toBe(0);
  // One after the other: the first start writes the database's one simulated-bank secret.
  const sandbox = (name: string) =>
    startKasa({ name, mode: "sandbox", db: url(), extra: ["--limits", "off", "--log-format", "json"] }).then((k) => {
      instances.push(k);
      return k;
    });
  a = await sandbox("A");
  b = await sandbox("B");
}, 90_000);

afterAll(async () => {
  await Promise.all(instances.map((k) => k.stop()));
  await new Promise<void>((resolve) => (receiver ? receiver.server.close(() => resolve()) : resolve()));
  if (seedDir) rmSync(seedDir, { recursive: true, force: true });
  await db?.drop();
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    for (const k of instances) console.error(`----- kasa ${k.name} (${k.base}) output, last part -----\n${k.output().slice(-6_000)}`);
  });
});

const create = (k: KasaInstance, key: string, body: { amount: number; partnerTxCode: string; terminalId: string }) =>
  api(k.base, key, "POST", "/v1/payments", { ...body, returnUrl: RETURN_URL });

/** The buyer, played by the sandbox: the relay, the simulated bank's 3D page (code 123456), the callback. */
async function simulate(k: KasaInstance, key: string, paymentCode: string, card: string): Promise<ApiAnswer> {
  return api(k.base, key, "POST", `/sandbox/payments/${paymentCode}/simulate`, { card });
}

/** A payment created on `on` and paid through `payOn` (the other process): its code. */
async function captured(on: KasaInstance, payOn: KasaInstance, key: string, terminalId: string, txCode: string, amount: number) {
  const made = await create(on, key, { amount, partnerTxCode: txCode, terminalId });
  expect(made.status, made.text).toBe(201);
  const paid = await simulate(payOn, key, made.json.paymentCode!, APPROVED_CARD);
  expect(paid.status, paid.text).toBe(200);
  expect(paid.json.outcome, paid.text).toBe("captured");
  return made.json.paymentCode!;
}

/**
 * Moves one process's sandbox clock to `to`. A process may already have followed another's move
 * (the offset lives in the database) to a little past `to`: the clock never moves back, so that
 * answer is 400, and the process's clock is checked instead.
 */
async function moveClock(k: KasaInstance, key: string, to: string): Promise<void> {
  const moved = await api(k.base, key, "POST", "/sandbox/clock", { to });
  if (moved.status === 200) return;
  const now = await api(k.base, key, "GET", "/sandbox/clock");
  expect(moved.status === 400 && Date.parse(now.json.now ?? "") >= Date.parse(to), `${k.name}: clock move to ${to}: ${moved.text}`).toBe(
    true,
  );
}

const payments = (partnerId: string) =>
  kasaJson<PaymentListJson[]>(["payments", "list", "--partner", partnerId, "--limit", "200", "--db", url()]);
const payment = (code: string) => kasaJson<PaymentShowJson>(["payments", "show", code, "--db", url()]);

/** How many times each value occurs. */
function tally(values: (string | number | null)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
  return counts;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const codeOf = (r: ApiAnswer): string | undefined => r.json.error?.code;

describe("product 22: two kasa processes on one PostgreSQL database under concurrent load", () => {
  it("50 identical creates, 25 to each process at once, give one payment", async () => {
    const body = { amount: 12_345, partnerTxCode: "idem-order-1", terminalId: "T-IDEM" };
    // kasa's idempotency key is the body's partnerTxCode (interface 4.5): the same request replays.
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => create(pick(i), KEY.idem, body)));

    const statuses = tally(answers.map((r) => r.status));
    expect(
      answers.filter((r) => r.status !== 200 && r.status !== 201).map((r) => `${r.status} ${r.text}`),
      "every answer is 201 or a 200 replay",
    ).toEqual([]);
    expect(statuses["201"], `exactly one create inserts (answers by status: ${JSON.stringify(statuses)})`).toBe(1);
    const codes = new Set(answers.map((r) => r.json.paymentCode));
    expect([...codes], "every answer names the same payment").toHaveLength(1);
    const [code] = [...codes];

    const listed = await payments("ptn_idem");
    expect(listed.map((p) => p.paymentCode)).toEqual([code]);
    for (const k of both()) {
      const read = await api(k.base, KEY.idem, "GET", `/v1/payments?partnerTxCode=${body.partnerTxCode}`);
      expect(read.status, read.text).toBe(200);
      expect(read.json.paymentCode).toBe(code);
    }
  });

  it("a connection's daily limit is never exceeded by concurrent creates on both processes", async () => {
    const tries = 30;
    const answers = await Promise.all(
      Array.from({ length: tries }, (_, i) =>
        create(pick(i), KEY.limit, { amount: LIMIT_AMOUNT, partnerTxCode: `limit-order-${i}`, terminalId: "T-LIMIT" }),
      ),
    );
    const admitted = answers.filter((r) => r.status === 201);
    const refused = answers.filter((r) => r.status !== 201);
    expect(
      refused.filter((r) => r.status !== 422 || codeOf(r) !== "pos_daily_limit_exceeded").map((r) => `${r.status} ${r.text}`),
      "every refusal is 422 pos_daily_limit_exceeded",
    ).toEqual([]);

    const stored = await payments("ptn_limit");
    const storedSum = stored.reduce((s, p) => s + p.amount, 0);
    expect(storedSum, `stored payments (${stored.length} x ${LIMIT_AMOUNT}) within the daily max ${DAILY_MAX}`).toBeLessThanOrEqual(
      DAILY_MAX,
    );
    expect(admitted.length * LIMIT_AMOUNT, "admitted creates within the daily max").toBeLessThanOrEqual(DAILY_MAX);
    // Nothing lost or doubled: one stored payment per 201, and the limit is used up, not refused early.
    expect(stored.map((p) => p.paymentCode).sort()).toEqual(admitted.map((r) => r.json.paymentCode!).sort());
    expect(admitted.length).toBe(DAILY_MAX / LIMIT_AMOUNT);
  });

  it("concurrent partial refunds on both processes never exceed the capture", { timeout: 60_000 }, async () => {
    const capturedAmount = 10_000;
    const part = 3_000;
    const code = await captured(a, b, KEY.refund, "T-REFUND", "refund-order-1", capturedAmount);

    const answers: ApiAnswer[] = [];
    // Rounds of 20 at once (10 per process), each asking 3,000 of a 10,000 capture, until a round
    // is refused whole because the remainder is smaller than a part.
    for (let round = 0; round < 10; round++) {
      const batch = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          api(pick(i).base, KEY.refund, "POST", `/v1/payments/${code}/refunds/credit`, {
            amount: part,
            partnerRefundCode: `rf-${round}-${i}`,
          }),
        ),
      );
      answers.push(...batch);
      if (batch.every((r) => codeOf(r) === "refund_amount_exceeds_remaining")) break;
    }

    const allowed = new Set(["201", "409 refund_in_progress", "422 refund_amount_exceeds_remaining", "422 payment_not_refundable"]);
    expect(
      answers.map((r) => (r.status === 201 ? "201" : `${r.status} ${codeOf(r)}`)).filter((s) => !allowed.has(s)),
      "every refusal carries a documented code",
    ).toEqual([]);
    const created = answers.filter((r) => r.status === 201);
    const shown = await payment(code);
    const live = shown.refunds.filter((r) => r.status === "approved" || r.status === "pending");
    const liveSum = live.reduce((s, r) => s + r.amount, 0);
    expect(liveSum, `approved + pending refunds ${JSON.stringify(tally(shown.refunds.map((r) => r.status)))}`).toBeLessThanOrEqual(
      capturedAmount,
    );
    expect(shown.refundedAmount).toBeLessThanOrEqual(capturedAmount);
    // Nothing lost or doubled: one refund row per 201, the approved ones are what the payment shows refunded.
    expect(shown.refunds.map((r) => r.refundId).sort()).toEqual(created.map((r) => r.json.refundId!).sort());
    const approvedSum = shown.refunds.filter((r) => r.status === "approved").reduce((s, r) => s + r.amount, 0);
    expect(shown.refundedAmount).toBe(approvedSum);
    // The sim bank approves credits at once: the capture is refunded down to less than one part.
    expect(approvedSum).toBe(Math.floor(capturedAmount / part) * part);
    expect(answers.some((r) => codeOf(r) === "refund_amount_exceeds_remaining")).toBe(true);
  });

  it("day end runs once though both processes' clocks pass midnight and `kasa dayend` runs four times meanwhile", {
    timeout: 60_000,
  }, async () => {
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) codes.push(await captured(pick(i), pick(i + 1), KEY.dayend, "T-DAYEND", `dayend-order-${i}`, 20_000 + i));
    const clockNow = async () => Date.parse((await api(a.base, KEY.dayend, "GET", "/sandbox/clock")).json.now ?? "");
    const before = await clockNow();
    const midnight = nextIstanbulMidnightMs(before + 5_000);
    const day = istanbulDate(midnight - 1);
    const runDay = addDays(day, 1);

    // On a database that never ran one, `kasa dayend` runs yesterday's; run it now, so that from
    // here on every party asks for `day` only, and only once midnight has come.
    const first = await kasaJson<DayEndReportJson[]>(["dayend", "--db", url()]);
    expect(
      first.every((r) => r.day < day),
      JSON.stringify(first),
    ).toBe(true);

    // Both clocks to just before midnight: each process's own timer runs the day end when it
    // comes; four operator commands start around the same instant and race them for it.
    const to = new Date(midnight - 1_500).toISOString();
    await Promise.all(both().map((k) => moveClock(k, KEY.dayend, to)));
    const untilMidnight = midnight - (await clockNow());
    const clis = await Promise.all(
      [-350, -150, 50, 250].map(async (offset) => {
        await sleep(Math.max(0, untilMidnight + offset));
        return runKasa(["dayend", "--json", "--db", url()]);
      }),
    );
    for (const cli of clis) expect(cli.code, `${cli.stderr}\n${cli.stdout}`).toBe(0);
    const reports = clis.flatMap((cli) => JSON.parse(cli.stdout) as DayEndReportJson[]);
    expect(
      reports.filter((r) => r.day === day && r.ran).length,
      `at most one command ran the day end itself: ${JSON.stringify(reports)}`,
    ).toBeLessThanOrEqual(1);
    const paid = () => kasaJson<PayoutJson[]>(["payouts", "list", "--partner", "ptn_dayend", "--db", url()]);
    await waitFor(async () => (await paid()).some((x) => x.status !== "pending"), "the day end's payout to be answered", 20_000);

    // A run afterwards finds nothing left to do for that day.
    const again = await kasaJson<DayEndReportJson[]>(["dayend", "--db", url()]);
    expect(again.filter((r) => r.day === day && r.ran)).toEqual([]);

    const store = await openStore(url());
    try {
      const days = await store.q.fixtures.dayEnds();
      expect(
        days.filter((d) => d === day),
        `dayends rows: ${days.join(", ")}`,
      ).toHaveLength(1);
      expect(new Set(days).size).toBe(days.length);
    } finally {
      await store.close();
    }

    // One batch per partner per day, over every partner of the database.
    const batches = await kasaJson<PayoutJson[]>(["payouts", "list", "--limit", "200", "--db", url()]);
    const perPartnerDay = tally(batches.map((x) => `${x.partnerId} ${x.day}`));
    expect(
      Object.entries(perPartnerDay).filter(([, n]) => n > 1),
      "a partner has two batches for one day",
    ).toEqual([]);
    const mine = batches.filter((x) => x.partnerId === "ptn_dayend");
    expect(mine.map((x) => x.day)).toEqual([runDay]);
    expect(mine[0]!.status).toBe("paid_out");

    // Each captured payment is in exactly one batch, and the batch pays exactly their net amounts.
    const shows = await Promise.all(batches.map((x) => kasaJson<PayoutShowJson>(["payouts", "show", x.payoutBatchId, "--db", url()])));
    const inBatches = shows.flatMap((s) => s.payments.map((p) => p.paymentCode));
    const counts = tally(inBatches);
    expect(codes.map((c) => counts[c] ?? 0)).toEqual(codes.map(() => 1));
    expect(
      Object.entries(counts).filter(([, n]) => n > 1),
      "a payment in two batches",
    ).toEqual([]);
    const show = shows.find((s) => s.payoutBatchId === mine[0]!.payoutBatchId)!;
    expect(show.payments.map((p) => p.paymentCode).sort()).toEqual([...codes].sort());
    expect(show.amount).toBe(show.payments.reduce((s, p) => s + (p.netToPartner ?? 0), 0));
    for (const code of codes) {
      const p = await payment(code);
      expect([p.settledDay, p.payoutBatchId]).toEqual([day, show.payoutBatchId]);
    }
  });

  it("every webhook delivery made on either process reaches the receiver exactly once", { timeout: 60_000 }, async () => {
    const rx = receiver!;
    const expected: Record<string, number> = {};
    const expect1 = (type: string, n = 1) => {
      expected[type] = (expected[type] ?? 0) + n;
    };

    // payment.captured: created on one process, paid on the other.
    const capturedCodes: string[] = [];
    for (let i = 0; i < 8; i++)
      capturedCodes.push(await captured(pick(i), pick(i + 1), KEY.hook, "T-HOOK", `hook-captured-${i}`, 5_000 + i));
    expect1("payment.captured", 8);
    // payment.failed: the bank rejects the capture.
    for (let i = 0; i < 2; i++) {
      const made = await create(pick(i), KEY.hook, { amount: 7_000 + i, partnerTxCode: `hook-failed-${i}`, terminalId: "T-HOOK" });
      expect(made.status, made.text).toBe(201);
      const paid = await simulate(pick(i + 1), KEY.hook, made.json.paymentCode!, CAPTURE_REJECTED_CARD);
      expect(paid.json.outcome, paid.text).toBe("failed");
    }
    expect1("payment.failed", 2);
    // refund.approved: one credit on each process.
    for (let i = 0; i < 2; i++) {
      const r = await api(pick(i).base, KEY.hook, "POST", `/v1/payments/${capturedCodes[i]}/refunds/credit`, {
        amount: 1_000,
        partnerRefundCode: `hook-refund-${i}`,
      });
      expect(r.status, r.text).toBe(201);
    }
    expect1("refund.approved", 2);
    // webhook.test queued by four operator commands (processes of their own): the sweeps of both servers race for them.
    const tests = await Promise.all([0, 1, 2, 3].map(() => runKasa(["webhooks", "test", "--partner", "ptn_hook", "--db", url()])));
    for (const t of tests) expect(t.code, `${t.stderr}\n${t.stdout}`).toBe(0);
    expect1("webhook.test", 4);
    // payment.expired: one payment made on each process, its 3D window run out on both clocks.
    for (let i = 0; i < 2; i++) {
      const made = await create(pick(i), KEY.hook, { amount: 9_000 + i, partnerTxCode: `hook-expired-${i}`, terminalId: "T-HOOK" });
      expect(made.status, made.text).toBe(201);
    }
    expect1("payment.expired", 2);

    const deliveries = () => kasaJson<DeliveryJson[]>(["webhooks", "list", "--partner", "ptn_hook", "--limit", "200", "--db", url()]);
    const total = Object.values(expected).reduce((s, n) => s + n, 0);
    const settled = async (n: number) => {
      const rows = await deliveries();
      return rows.length === n && rows.every((d) => d.status !== "pending");
    };
    // Quiet before the clock moves (no attempt in flight on either process), then both clocks together.
    await waitFor(() => settled(total - 2), "the deliveries made so far to settle", 30_000);
    const now = Date.parse((await api(a.base, KEY.hook, "GET", "/sandbox/clock")).json.now ?? "");
    const to = new Date(now + 31 * MINUTE_MS).toISOString();
    await Promise.all(both().map((k) => moveClock(k, KEY.hook, to)));
    await waitFor(
      () => settled(total),
      "every delivery to settle",
      30_000,
      () => JSON.stringify(rx.received.slice(-20)),
    );
    // A late duplicate (a second process taking over an attempt it thinks orphaned) would land now.
    await sleep(1_500);

    const rows = await deliveries();
    expect(tally(rows.map((d) => d.type))).toEqual(expected);
    const odd = rows.filter((d) => d.status !== "delivered" || d.attempts !== 1);
    // For the failure message: each such delivery's attempts and the processes that logged one.
    const explain = async () => {
      const lines: string[] = [];
      for (const d of odd) {
        const shown = await kasaJson<{ history: unknown[] }>(["webhooks", "show", d.id, "--db", url()]);
        const loggedBy = instances.filter((k) => k.output().includes(`"deliveryId":"${d.id}"`)).map((k) => k.name);
        lines.push(`${d.id} ${d.type} ${d.status}, attempts logged by ${loggedBy.join("+") || "-"}: ${JSON.stringify(shown.history)}`);
      }
      return lines.join("\n");
    };
    expect(odd.length, `every delivery delivered at its first attempt:\n${odd.length === 0 ? "" : await explain()}`).toBe(0);

    const ids = new Set(rows.map((d) => d.id));
    const mine = rx.received.filter((r) => r.bodyId !== null && ids.has(r.bodyId));
    expect(
      mine.filter((r) => r.headerId !== r.bodyId),
      "the delivery-id header matches the body",
    ).toEqual([]);
    const got = tally(mine.map((r) => r.bodyId));
    expect(
      Object.entries(got).filter(([, n]) => n !== 1),
      "a delivery received more than once",
    ).toEqual([]);
    expect(
      [...ids].filter((id) => got[id] === undefined),
      "a delivery the receiver never got",
    ).toEqual([]);
    // Nothing arrived that the database does not know (only ptn_hook has a webhook URL).
    expect(rx.received.filter((r) => r.bodyId === null || !ids.has(r.bodyId))).toEqual([]);
  });
});
