import { toLira } from "../../lira";
import { toInstallCount } from "./amounts";
import type { AkbankConfig } from "./config";
import { randomNumber, requestDateTime } from "./wire-time";

// The JSON bodies kasa posts to `{apiUrl}/transaction/process` (docs/banks-akbank.md), in the key
// order mews/pos sends them. The bank checks the `auth-hash` over whatever octets arrive; kasa
// serializes as PHP's json_encode does (`/` as `\/`, non-ASCII as `\uXXXX`) so its bodies are
// byte for byte those of the public library that works in production.

export const TXN = { sale: "1000", refund: "1002", void: "1003", orderHistory: "1010" } as const;
export const CURRENCY_TRY = 949;

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** PHP `json_encode` with default flags: `/` escaped, every non-ASCII UTF-16 unit as `\uXXXX`. */
export const phpJson = (value: Json): string =>
  JSON.stringify(value).replace(/[/\u0080-\uffff]/g, (c) => (c === "/" ? "\\/" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));

/** What makes two requests differ besides their content: injected so tests can fix them. */
export interface Envelope {
  nowMs: number;
  random?: string;
}

const terminalOf = (c: AkbankConfig) => ({ merchantSafeId: c.merchantSafeId, terminalSafeId: c.terminalSafeId });
const stamp = (e: Envelope) => ({ requestDateTime: requestDateTime(e.nowMs), randomNumber: e.random ?? randomNumber() });

export interface SecureTransaction {
  secureId: string;
  secureEcomInd: string;
  secureData: string;
  secureMd: string;
}

/** `1000` after 3D: the sale, carrying the 3D proof of the callback. */
export function saleBody(
  c: AkbankConfig,
  e: Envelope,
  sale: { orderId: string; amount: number; installment: number; secure: SecureTransaction },
): Json {
  return {
    terminal: terminalOf(c),
    ...(c.subMerchantId ? { subMerchant: { subMerchantId: c.subMerchantId } } : {}),
    version: "1.00",
    txnCode: TXN.sale,
    ...stamp(e),
    order: { orderId: sale.orderId },
    transaction: { amount: toLira(sale.amount), currencyCode: CURRENCY_TRY, motoInd: 0, installCount: toInstallCount(sale.installment) },
    secureTransaction: { ...sale.secure },
    // The buyer's address is not kept past the handoff; the field is required, so kasa sends none known.
    customer: { ipAddress: "0.0.0.0" },
  };
}

/** `1003`: cancels the order (same day). */
export const voidBody = (c: AkbankConfig, e: Envelope, orderId: string): Json => ({
  terminal: terminalOf(c),
  txnCode: TXN.void,
  version: "1.00",
  ...stamp(e),
  order: { orderId },
});

/** `1002` with an amount: a (partial) refund after the day end. */
export const refundBody = (c: AkbankConfig, e: Envelope, orderId: string, amount: number): Json => ({
  terminal: terminalOf(c),
  version: "1.00",
  txnCode: TXN.refund,
  ...stamp(e),
  transaction: { amount: toLira(amount), currencyCode: CURRENCY_TRY },
  order: { orderId },
});

/** `1010`: the order's history, kasa's status query after a lost answer. */
export const orderHistoryBody = (c: AkbankConfig, e: Envelope, orderId: string): Json => ({
  terminal: terminalOf(c),
  version: "1.00",
  txnCode: TXN.orderHistory,
  ...stamp(e),
  order: { orderId },
});

/** The daily list (`portal/report/transaction`): one Istanbul day at most, as mews sends it. */
export const dailyListBody = (c: AkbankConfig, e: Envelope, day: { start: string; end: string }): Json => ({
  terminal: terminalOf(c),
  randomNumber: e.random ?? randomNumber(),
  report: { startDateTime: day.start, endDateTime: day.end },
});
