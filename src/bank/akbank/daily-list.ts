import { gunzipSync } from "node:zlib";
import { fromAmountNumber } from "./amounts";
import { APPROVED } from "./callback";
import { type AkbankConfig, reportUrl } from "./config";
import { dailyListBody, type Envelope } from "./requests";
import { type AkbankAnswer, type AkbankTransport, callAkbank, str } from "./wire";
import { requestDateTime } from "./wire-time";

// The daily transaction list (`portal/report/transaction`): what reconciliation reads to find the
// day's orders kasa does not know (reconcile.ts, docs/reconciliation.md). One Istanbul day per
// call; the answer's `data` is base64 of gzip of JSON, whose rows kasa reads as integer kuruş.

export interface DailyRow {
  orderId: string;
  txnCode: string;
  status: string;
  amount: number | null;
  installCount: number;
  txnDateTime: string;
}

/** `data` -> rows; null when it is not base64(gzip(JSON)) with a row list. */
export function readDailyData(data: string): DailyRow[] | null {
  try {
    const doc = JSON.parse(gunzipSync(Buffer.from(data, "base64")).toString("utf8")) as AkbankAnswer;
    const list = doc.txnDetailList;
    if (!Array.isArray(list)) return null;
    return list.map((item) => {
      const row = (item ?? {}) as AkbankAnswer;
      return {
        orderId: str(row, "orderId") ?? "",
        txnCode: str(row, "txnCode") ?? "",
        status: str(row, "txnStatus") ?? "",
        amount: fromAmountNumber(row.amount),
        installCount: Number(str(row, "installmentCount") ?? "1") || 1,
        txnDateTime: str(row, "txnDateTime") ?? "",
      };
    });
  } catch {
    return null;
  }
}

/** The rows of the Istanbul day that starts at `dayStartMs`; null when the bank gave no readable list. */
export async function dailyList(
  config: AkbankConfig,
  transport: AkbankTransport,
  e: Envelope,
  dayStartMs: number,
): Promise<DailyRow[] | null> {
  const day = { start: requestDateTime(dayStartMs), end: requestDateTime(dayStartMs + 24 * 60 * 60 * 1000 - 1) };
  const answer = await callAkbank(config, transport, reportUrl(config), dailyListBody(config, e, day));
  if (answer === null || str(answer, "responseCode") !== APPROVED) return null;
  const data = str(answer, "data");
  return data === null ? null : readDailyData(data);
}
