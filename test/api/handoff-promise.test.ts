import { afterEach, describe, expect, it } from "vitest";
import { editPartners } from "../support/catalog-edits";
import { harness, type Harness } from "../support/harness";
import { answerAcs, createPayment, handOff, linkPaymentOf, luhnComplete, paymentRow } from "./payments-flow";
import type { BinRow, StoredRate, TerminalRow } from "../../src/store/rows";

// Interface 4.8's promise, as a property: for random terminals, BINs, amounts and shares, every
// count POST /v1/installment-options lists is accepted by POST /v1/payments and charged through
// the handoff at the listed rateBps / fixedFee (and, with the principal a link would carry, at the
// listed commissionAmount); every count of the effective set it does not list is refused at the
// handoff. Seeded, so a failure names the case that reproduces it.

let h: Harness;
afterEach(async () => h?.close());

/** mulberry32: small, seedable, good enough to draw test cases. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)]!;
  const chance = (p: number): boolean => next() < p;
  return { int, pick, chance };
}

const COUNTS = [1, 2, 3, 4, 6, 9, 12] as const;
const BRANDS = ["bonus", "world", "maximum", "axess"] as const;
const BANKS = ["Demo Bank A", "Demo Bank B", "Demo Bank C"] as const;
const FAMILIES = ["credit", "credit", "credit", "debit", "prepaid", "foreign"] as const;

type Case = {
  terminal: TerminalRow;
  accepts: { foreign: boolean; debit: boolean };
  installmentCap: number | null;
  bin: BinRow | null;
  bin8: string;
  baseAmount: number;
  shareBps: number | null;
};

function drawCase(seed: number): Case {
  const r = rng(seed);
  const installments = COUNTS.filter((c) => c === 1 || r.chance(0.6));
  const terminalBank = r.chance(0.8) ? r.pick(BANKS) : null;
  const rates: StoredRate[] = [];
  for (const count of COUNTS) {
    const fee = (): number | null => (r.chance(0.3) ? r.int(0, 500) : null);
    if (r.chance(0.85)) rates.push({ count, brand: null, onUs: null, rateBps: r.int(0, 3000), fixedFee: fee() });
    for (const brand of BRANDS) if (r.chance(0.2)) rates.push({ count, brand, onUs: null, rateBps: r.int(0, 3000), fixedFee: fee() });
    if (terminalBank && r.chance(0.2)) rates.push({ count, brand: null, onUs: true, rateBps: r.int(0, 3000), fixedFee: fee() });
    if (terminalBank && r.chance(0.1)) rates.push({ count, brand: r.pick(BRANDS), onUs: false, rateBps: r.int(0, 3000), fixedFee: fee() });
  }
  const unique = rates.filter(
    (row, i) => rates.findIndex((o) => o.count === row.count && o.brand === row.brand && o.onUs === row.onUs) === i,
  );
  const family = r.pick(FAMILIES);
  const bin8 = `${r.pick(["4", "5"])}${String(r.int(0, 9_999_999)).padStart(7, "0")}`;
  const bin: BinRow | null = r.chance(0.15)
    ? null
    : {
        bin: bin8,
        family,
        brand: family === "credit" && r.chance(0.8) ? r.pick(BRANDS) : null,
        bank: r.chance(0.8) ? r.pick(BANKS) : null,
        installments: r.chance(0.8),
      };
  return {
    terminal: {
      id: `T-P${seed}`,
      partnerId: "ptn_test",
      connectionId: `vpos-p${seed}`,
      active: true,
      commissionBasis: r.pick(["gross", "net"] as const),
      installments,
      rates: unique,
      infrastructure: "standard",
      directCollection: false,
      valueDays: 1,
      valueDaysByCount: null,
      bank: terminalBank,
      allowedCardFamilies: r.chance(0.15) ? ["credit"] : null,
      routing: null,
    },
    accepts: { foreign: r.chance(0.5), debit: r.chance(0.8) },
    installmentCap: r.pick([null, null, 3, 6, 12]),
    bin,
    bin8,
    baseAmount: r.chance(0.1) ? r.int(1, 99) : r.int(100, 5_000_000),
    shareBps: r.chance(0.3) ? null : r.pick([0, 0, 2500, 5000, 10_000, r.int(0, 10_000)]),
  };
}

async function install(h: Harness, c: Case): Promise<void> {
  await h.store.write(async (tx) => {
    await tx.catalog.upsertConnection({
      id: c.terminal.connectionId,
      pspId: "psp-1",
      bank: "sim",
      active: true,
      acceptsForeignCards: c.accepts.foreign,
      acceptsDebit: c.accepts.debit,
      perTxMax: null,
      dailyMax: null,
      weeklyMax: null,
      monthlyMax: null,
      windowMinutes: null,
      windowMax: null,
    });
    await tx.catalog.upsertTerminal(c.terminal);
    if (c.bin) await tx.catalog.upsertBin(c.bin);
  });
  await editPartners(h.store, { installmentCap: c.installmentCap }, "ptn_test");
}

/** Through the browser: handoff, ACS, callback. Answers the refusal status, or "captured"/"failed". */
async function charge(h: Harness, paymentRef: string, pan: string): Promise<string | number> {
  const acs = await handOff(h, paymentRef, pan);
  if (!(acs.page?.status === 200 && acs.page.url.endsWith("/sim-bank/acs"))) return acs.page?.status ?? 0;
  const done = await answerAcs(h, acs);
  return /status=(\w+)/.exec(done.leftTo ?? "")?.[1] ?? "none";
}

const SEEDS = Array.from({ length: 40 }, (_, i) => 7_001 + i * 7);

describe("interface 4.8 the promise: listed options are accepted and charged as listed (property)", () => {
  it.each(SEEDS)("case %i", async (seed) => {
    const c = drawCase(seed);
    h = await harness();
    await install(h, c);
    const pan = luhnComplete(`${c.bin8}${String(seed).padStart(7, "0").slice(-7)}`);
    const quote = await h.post("/v1/installment-options", {
      bin: c.bin8,
      terminalId: c.terminal.id,
      baseAmount: c.baseAmount,
      customerCommissionShareBps: c.shareBps,
    });
    if (quote.status === 403) {
      // A family the terminal does not allow: nothing is chargeable, the handoff refuses (403).
      const p = await createPayment(h, { terminalId: c.terminal.id, amount: c.baseAmount });
      expect(await charge(h, p.json.paymentRef, pan)).toBe(403);
      return;
    }
    expect(quote.status).toBe(200);
    const options: Array<{
      installmentCount: number;
      rateBps: number;
      fixedFee: number | null;
      totalAmount: number;
      commissionAmount: number;
    }> = quote.json.options;
    const listed = new Set(options.map((o) => o.installmentCount));
    for (const o of options) {
      const api = await createPayment(h, {
        terminalId: c.terminal.id,
        amount: o.totalAmount,
        installment: o.installmentCount,
        returnUrl: "https://shop.example/l",
      });
      expect(api.status, `seed ${seed}: create x${o.installmentCount}`).toBe(201);
      expect(await charge(h, api.json.paymentRef, pan), `seed ${seed}: charge x${o.installmentCount}`).toBe("captured");
      const row = await paymentRow(h, api.json.paymentCode);
      expect([row.appliedRateBps, row.appliedFixedFee]).toEqual([o.rateBps, o.fixedFee]);
      if (c.terminal.commissionBasis === "gross" || o.totalAmount === c.baseAmount) expect(row.commissionAmount).toBe(o.commissionAmount);
      // Through a link the principal is the base amount, so the listed commission holds on net too.
      const viaLink = await linkPaymentOf(h, {
        terminalId: c.terminal.id,
        baseAmount: c.baseAmount,
        amount: o.totalAmount,
        installment: o.installmentCount,
        returnUrl: "https://shop.example/l",
      });
      expect(await charge(h, viaLink.paymentRef, pan)).toBe("captured");
      expect(await paymentRow(h, viaLink.code)).toMatchObject({
        appliedRateBps: o.rateBps,
        appliedFixedFee: o.fixedFee,
        commissionAmount: o.commissionAmount,
      });
    }
    const cap = c.installmentCap;
    for (const count of COUNTS.filter((n) => !listed.has(n))) {
      const p = await createPayment(h, { terminalId: c.terminal.id, amount: c.baseAmount, installment: count });
      const inSet = c.terminal.installments.includes(count) && (cap === null || count <= cap);
      if (!inSet) {
        expect([p.status, p.json.error?.code]).toEqual([422, "installment_not_allowed"]);
        continue;
      }
      expect(p.status).toBe(201);
      expect([422, 403], `seed ${seed}: unlisted x${count} must not be chargeable`).toContain(await charge(h, p.json.paymentRef, pan));
    }
  });
});
