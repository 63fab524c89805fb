import type { CaptureResult } from "../gateway";
import { fromAmountNumber } from "./amounts";
import { APPROVED } from "./callback";
import { type AkbankConfig, processUrl } from "./config";
import { type Envelope, orderHistoryBody, TXN } from "./requests";
import { type AkbankAnswer, type AkbankTransport, callAkbank, str } from "./wire";

// The per-order history (`1010`), kasa's status query: AkbankPos has no status call. A lost
// answer to a sale, void or refund is resolved by reading the order's rows, never by sending the
// request again (docs/banks-akbank.md, "Unknown outcomes").

export const NO_RECORD = "VPS-1123";

export interface HistoryRow {
  txnCode: string;
  responseCode: string;
  /** N normal, V voided, R refunded/reversed, S suspicious. */
  txnStatus: string;
  amount: number | null;
  authCode: string;
  rrn: string;
}

/** The order's rows; "none": the bank has no such order; null: no readable answer. */
export type History = HistoryRow[] | "none" | null;

function rowsOf(answer: AkbankAnswer): HistoryRow[] | null {
  const list = answer.txnDetailList;
  if (!Array.isArray(list)) return null;
  return list.map((item) => {
    const row = (typeof item === "object" && item !== null ? item : {}) as AkbankAnswer;
    return {
      txnCode: str(row, "txnCode") ?? "",
      responseCode: str(row, "responseCode") ?? "",
      txnStatus: str(row, "txnStatus") ?? "",
      amount: fromAmountNumber(row.amount),
      authCode: str(row, "authCode") ?? "",
      rrn: str(row, "rrn") ?? "",
    };
  });
}

export async function orderHistory(config: AkbankConfig, transport: AkbankTransport, e: Envelope, orderId: string): Promise<History> {
  const answer = await callAkbank(config, transport, processUrl(config), orderHistoryBody(config, e, orderId));
  if (answer === null) return null;
  const code = str(answer, "responseCode");
  if (code === NO_RECORD) return "none";
  if (code !== APPROVED) return null;
  return rowsOf(answer);
}

const saleRow = (rows: readonly HistoryRow[]): HistoryRow | undefined => rows.find((r) => r.txnCode === TXN.sale);

/**
 * The sale's fate from the history: approved and not voided is captured; voided, declined or no
 * record is failed (nothing stands charged); anything else is still unknown.
 */
export function saleOutcome(history: History, orderId: string): CaptureResult {
  if (history === null) return { approved: null, detail: "no readable answer to the order history (1010)" };
  if (history === "none") return { approved: false, reason: "declined", errMsg: "no record at the bank" };
  const sale = saleRow(history);
  if (!sale) return { approved: null, detail: "the order history shows no sale row" };
  if (sale.responseCode !== APPROVED)
    return { approved: false, reason: "declined", procReturnCode: sale.responseCode, errMsg: `sale ${sale.responseCode}` };
  if (sale.txnStatus === "V") return { approved: false, reason: "declined", errMsg: "txnStatus V" };
  if (sale.txnStatus === "N" || sale.txnStatus === "R") return { approved: true, authCode: sale.authCode, bankReference: orderId };
  return { approved: null, detail: `the sale row has txnStatus ${sale.txnStatus || "none"}` };
}

export const isVoided = (history: History): boolean => Array.isArray(history) && saleRow(history)?.txnStatus === "V";

/** Approved refund rows (`1002`) so far: a refund marker records it before a refund is sent. */
export function refundCount(history: History): number | null {
  if (history === "none") return 0;
  return Array.isArray(history) ? history.filter((r) => r.txnCode === TXN.refund && r.responseCode === APPROVED).length : null;
}
