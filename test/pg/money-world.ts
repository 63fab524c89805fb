import type { LinkRow } from "../../src/store/rows";
import type { SeedPayment, SeedRefund } from "../../src/store/postgres/seed-links-fixtures-pg";
import { linksPg } from "../../src/store/postgres/links-pg";
import type { Both } from "./differential";
import {
  partnersPg,
  partnersSqlite,
  paymentPg,
  paymentSqlite,
  refundPg,
  refundSqlite,
  type TerminalSeed,
  terminalPg,
  terminalSqlite,
} from "./links-world";

// The payments and refunds behind the settlement, operator and panel differential tests (issue
// 23), seeded alike on both stores. Two partners, two banks; p1's nets due together pass 2^53
// (NET1 + BIG: test values, not what a commission makes of the amount), a capture after the day's
// cutoff, one still initiated, one whose void is pending at the bank, and credit refunds approved
// before and after a cutoff.

export const TERMINALS: TerminalSeed[] = [
  { id: "t1", partnerId: "p1", connectionId: "c1", bank: "akbank" },
  { id: "t2", partnerId: "p1", connectionId: "c2", bank: "garanti" },
  { id: "t3", partnerId: "p2", connectionId: "c1", bank: "akbank" },
];

export const BIG = 6_000_000_000_000_000;
export const NET1 = 4_000_000_000_000_000;

export const LINK: LinkRow = {
  id: "L1",
  partnerId: "p1",
  token: "tok-L1",
  partnerReference: 1,
  terminalId: "t1",
  status: "initiated",
  amount: 10_000,
  shareBps: 0,
  description: "bir",
  redirectUrl: null,
  allowedCounts: null,
  items: null,
  payerName: null,
  attemptSeq: 0,
  firstOpenedAtMs: null,
  lastOpenedAtMs: null,
  expiresAtMs: 900_000,
  createdAtMs: 5_000,
  updatedAtMs: 5_000,
};

const pay = (
  code: string,
  terminal: TerminalSeed,
  createdAtMs: number,
  captured: SeedPayment["captured"],
  over: Partial<SeedPayment> = {},
): SeedPayment => ({
  code,
  partnerId: terminal.partnerId,
  terminalId: terminal.id,
  connectionId: terminal.connectionId,
  linkId: null,
  amount: 10_000,
  createdAtMs,
  expiresAtMs: createdAtMs + 900_000,
  captured,
  ...over,
});

const [T1, T2, T3] = TERMINALS as [TerminalSeed, TerminalSeed, TerminalSeed];

export const PAYMENTS: SeedPayment[] = [
  pay("P1", T1, 9_000, { atMs: 10_000, commission: 1_000, net: NET1, valueDate: "2026-01-02" }, { linkId: "L1" }),
  pay("P2", T2, 19_000, { atMs: 20_000, commission: 0, net: BIG, valueDate: "2026-01-02" }, { amount: BIG }),
  pay("P3", T3, 29_000, { atMs: 30_000, commission: 0, net: BIG + 1, valueDate: "2026-01-03" }, { amount: BIG + 1 }),
  pay("P4", T1, 89_000, { atMs: 90_000, commission: 100, net: 9_900, valueDate: "2026-01-02" }),
  pay("P5", T1, 9_000, null, { linkId: "L1" }),
  pay("P6", T2, 14_000, { atMs: 15_000, commission: 10, net: 9_990, valueDate: "2026-01-02" }),
];

export const REFUNDS: SeedRefund[] = [
  {
    id: "R1",
    paymentCode: "P1",
    partnerId: "p1",
    method: "credit",
    amount: 1_000,
    createdAtMs: 35_000,
    finished: { status: "approved", atMs: 40_000 },
  },
  { id: "R2", paymentCode: "P6", partnerId: "p1", method: "void", amount: 10_000, createdAtMs: 36_000, finished: null },
  {
    id: "R3",
    paymentCode: "P3",
    partnerId: "p2",
    method: "credit",
    amount: 500,
    createdAtMs: 45_000,
    finished: { status: "approved", atMs: 50_000 },
  },
  {
    id: "R4",
    paymentCode: "P2",
    partnerId: "p1",
    method: "credit",
    amount: 700,
    createdAtMs: 46_000,
    finished: { status: "declined", atMs: 51_000 },
  },
];

export async function seedMoney(b: Both): Promise<void> {
  await b.sqlite(async (tx) => {
    await partnersSqlite(tx, ["p1", "p2"]);
    for (const t of TERMINALS) await terminalSqlite(tx, t);
    await tx.links.insert(LINK);
    for (const p of PAYMENTS) await paymentSqlite(tx, p);
    for (const r of REFUNDS) await refundSqlite(tx, r);
  });
  await b.pg(async (sql) => {
    await partnersPg(sql, ["p1", "p2"]);
    for (const t of TERMINALS) await terminalPg(sql, t);
    await linksPg(sql).insert(LINK);
    for (const p of PAYMENTS) await paymentPg(sql, p);
    for (const r of REFUNDS) await refundPg(sql, r);
  });
}
