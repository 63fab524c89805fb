import { afterEach, describe, expect, it } from "vitest";
import { runDueDayEnds } from "../../src/domain/settlement/dayend";
import { DAY_MS, HOUR_MS, MINUTE_MS } from "../../src/limits";
import { TEST_KEY } from "../support/fixtures";
import { harness, type Harness } from "../support/harness";
import { capture } from "../support/kasa-process";
import { MONEY_SEED, NO_ACCOUNT_KEY } from "../support/money-fixtures";

// Acceptance of issue 8 (product 9): over a random but reproducible sequence of captures, refunds
// (void, credit, partial, declined, pending), clock moves over midnights (day ends) and repeated
// day ends, for every partner and at every check, to the kuruş:
//
//   captured = refunded + commission + paid out + still due
//
// - captured:   amounts of every payment the test saw captured (whatever became of it later);
// - refunded:   amounts of the refunds GET …/refunds/{id} shows `approved` (voids and credits);
// - commission: commissionAmount (GET payment) of captured payments not voided: kasa's fee, which
//               a credit refund does not give back (the partner's payout bears the refund whole);
// - paid out:   amounts of the partner's `paid_out` payout batches;
// - still due:  netToPartner of its captured, not voided payments that no paid_out batch holds,
//               minus its approved credit refunds that no paid_out batch netted. It is what the
//               partner is still owed, and negative while refunds exceed what has come due.

/** mulberry32: a small seeded PRNG, so a failing seed replays exactly. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Captured = { code: string; partnerId: string; amount: number; key: string };

const PARTNERS = [
  { partnerId: "ptn_test", key: TEST_KEY, terminals: ["T-1", "T-NET", "T-VD0", "T-VD2", "T-DIRECT"] },
  { partnerId: "ptn_noacct", key: NO_ACCOUNT_KEY, terminals: ["T-NOACCT"] },
];
const CARDS = ["4000001100000009", "4000001100000009", "4000001100000009", "5400001300000000", "4000001500000005"];
const ENDPOINTS = ["", "/void", "/credit"];
const OPS = 140;

let h: Harness;
afterEach(async () => h?.close());

async function ledgerOf(partnerId: string, captures: Captured[], refundIds: Map<string, string>) {
  const mine = captures.filter((c) => c.partnerId === partnerId);
  const key = mine[0]?.key ?? TEST_KEY;
  let refunded = 0;
  let commission = 0;
  for (const c of mine) {
    const record = (await h.get(`/v1/payments/${c.code}`, { key })).json;
    if (record.status !== "voided") commission += record.commissionAmount;
    for (const summary of record.refunds) {
      const refund = (await h.get(`/v1/payments/${c.code}/refunds/${summary.refundId}`, { key })).json;
      expect(refundIds.get(summary.refundId)).toBe(c.code);
      if (refund.status === "approved") refunded += refund.amount;
    }
  }
  const batches = await h.store.q.operator.payoutBatches({ partnerId, status: null, limit: 10_000 });
  const paid = new Set(batches.filter((b) => b.status === "paid_out").map((b) => b.id));
  const paidOut = batches.filter((b) => b.status === "paid_out").reduce((s, b) => s + b.amount, 0);
  let stillDue = 0;
  for (const c of mine) {
    const p = (await h.store.q.payments.get(c.code))!;
    if (p.status !== "voided" && !(p.payoutBatchId && paid.has(p.payoutBatchId))) stillDue += p.netToPartner!;
    for (const r of await h.store.q.refunds.ofPayment(c.code)) {
      if (r.method === "credit" && r.status === "approved" && !(r.payoutBatchId && paid.has(r.payoutBatchId))) stillDue -= r.amount;
    }
  }
  for (const b of batches) {
    // Every batch is positive and holds exactly what it paid; no batch is left in flight.
    expect(b.status).not.toBe("pending");
    expect(b.amount).toBeGreaterThan(0);
    if (b.status === "paid_out") {
      const nets = (await h.store.q.operator.paymentsOfBatch(b.id)).reduce((s, p) => s + p.netToPartner!, 0);
      const credits = (await h.store.q.operator.refundsOfBatch(b.id)).reduce((s, r) => s + r.amount, 0);
      expect(nets - credits).toBe(b.amount);
    }
  }
  const captured = mine.reduce((s, c) => s + c.amount, 0);
  return { captured, refunded, commission, paidOut, stillDue };
}

async function checkConservation(captures: Captured[], refundIds: Map<string, string>) {
  for (const { partnerId } of PARTNERS) {
    const l = await ledgerOf(partnerId, captures, refundIds);
    expect(l.refunded + l.commission + l.paidOut + l.stillDue, `${partnerId}: ${JSON.stringify(l)}`).toBe(l.captured);
  }
  for (const c of captures) {
    const p = (await h.store.q.payments.get(c.code))!;
    const approved = (await h.store.q.refunds.ofPayment(c.code)).filter((r) => r.status === "approved").reduce((s, r) => s + r.amount, 0);
    expect(p.refundedAmount).toBe(approved);
    expect(approved).toBeLessThanOrEqual(p.amount);
    if (p.status === "voided") expect(p.settledDay).toBeNull();
  }
}

// An honest budget (issue 37): one seed takes ~26 s on PostgreSQL on a quiet machine (~3 s on
// SQLite), so the project's 20-30 s default sat within 2x of it and failed on a busy one.
const SEED_BUDGET_MS = 120_000;

describe("product 9 acceptance: money is conserved over random captures, refunds and day ends", () => {
  it.each([1, 2, 3])("seed %i", { timeout: SEED_BUDGET_MS }, async (seed) => {
    h = await harness({ seed: MONEY_SEED });
    const rand = prng(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
    const captures: Captured[] = [];
    const refundIds = new Map<string, string>();
    let n = 0;
    for (let op = 0; op < OPS; op++) {
      const roll = rand();
      if (roll < 0.35 || captures.length === 0) {
        const partner = pick(PARTNERS);
        const amount = 100 + Math.floor(rand() * 50_000);
        const code = await capture(h, { amount, terminalId: pick(partner.terminals), pan: pick(CARDS), key: partner.key });
        captures.push({ code, partnerId: partner.partnerId, amount, key: partner.key });
      } else if (roll < 0.75) {
        const c = pick(captures);
        const p = (await h.store.q.payments.get(c.code))!;
        const left = p.amount - p.refundedAmount;
        const amount = rand() < 0.3 ? null : 1 + Math.floor(rand() * Math.max(1, left + 500));
        const res = await h.post(
          `/v1/payments/${c.code}/refunds${pick(ENDPOINTS)}`,
          { amount, partnerRefundCode: `M-${seed}-${++n}` },
          { key: c.key },
        );
        expect([201, 409, 422], res.text).toContain(res.status);
        if (res.status === 201) refundIds.set(res.json.refundId, c.code);
      } else if (roll < 0.95) {
        await h.advance(pick([MINUTE_MS, 10 * MINUTE_MS, HOUR_MS, 5 * HOUR_MS, 9 * HOUR_MS]));
        await checkConservation(captures, refundIds);
      } else {
        // A repeated `kasa dayend` (or a second process) changes nothing that already ran.
        await runDueDayEnds(h.deps);
      }
    }
    // Let every pending refund finish and every value date come.
    await h.advance(4 * DAY_MS);
    await checkConservation(captures, refundIds);
    const final = await ledgerOf("ptn_test", captures, refundIds);
    // Everything has come due: the partner with an account is owed nothing (or carries a debt).
    expect(final.stillDue).toBeLessThanOrEqual(0);
    expect(await h.store.q.refunds.allPending()).toEqual([]);
  });
});
