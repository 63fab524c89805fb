import type { ConnectionRow, PartnerRow, TerminalRow } from "../../src/store/rows";

// Plain catalog rows for tests that write the store directly (unit tests of the store, the
// PostgreSQL differential tests): active, no limits, no rates. A test changes what it is about.

/** An active simulated-bank connection of psp-1 with no limits. */
export const connectionRow = (id: string, over: Partial<ConnectionRow> = {}): ConnectionRow => ({
  id,
  pspId: "psp-1",
  bank: "sim",
  bankConfig: null,
  active: true,
  acceptsForeignCards: false,
  acceptsDebit: true,
  perTxMax: null,
  dailyMax: null,
  weeklyMax: null,
  monthlyMax: null,
  windowMinutes: null,
  windowMax: null,
  breaker: null,
  ...over,
});

/** A plain active partner. */
export const partnerRow = (id: string, createdAtMs: number, over: Partial<PartnerRow> = {}): PartnerRow => ({
  id,
  name: `Partner ${id}`,
  status: "active",
  allowedRedirectHosts: null,
  amountMin: null,
  amountMax: null,
  cardAttemptLimit: 3,
  installmentCap: null,
  webhookUrl: null,
  webhookSecret: null,
  rateLimitMultiplier: 1,
  payoutAccount: null,
  createdAtMs,
  ...over,
});

/** A plain active terminal (one installment, no rates). */
export const terminalRow = (t: Pick<TerminalRow, "id" | "partnerId" | "connectionId">): TerminalRow => ({
  id: t.id,
  partnerId: t.partnerId,
  connectionId: t.connectionId,
  active: true,
  commissionBasis: "gross",
  installments: [1],
  rates: [],
  infrastructure: "standard",
  directCollection: false,
  valueDays: 1,
  valueDaysByCount: null,
  bank: null,
  allowedCardFamilies: null,
  routing: null,
});
