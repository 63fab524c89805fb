import { gzipSync } from "node:zlib";
import { toLira } from "../../../lira";
import { authHash, sameSignature } from "../crypt";
import { fromRequestDateTime, requestDateTime } from "../wire-time";
import { AKBANK_SIM_ACCOUNT } from "./settings";
import type { AkbankSimState, Order, SimTxn } from "./state";

// POST …/portal/report/transaction: the daily list of the merchant's transactions, what
// reconciliation reads to find orders kasa does not know (docs/reconciliation.md). Signed like
// the API; one Istanbul day at most; the rows travel as base64 of gzip of JSON, as the bank's do.

const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8" };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
const DAY_MS = 24 * 60 * 60 * 1000;

type Doc = Record<string, unknown>;
const textOf = (doc: unknown, name: string): string => {
  const v = doc && typeof doc === "object" ? (doc as Doc)[name] : undefined;
  return typeof v === "string" ? v : "";
};

const row = (order: Order, txn: SimTxn, txnStatus: string) => ({
  orderId: order.orderId,
  txnCode: txn.txnCode,
  txnStatus,
  responseCode: txn.responseCode,
  amount: Number(toLira(txn.amountKurus)),
  installmentCount: String(order.installCount),
  txnDateTime: requestDateTime(txn.atMs),
  rrn: txn.rrn,
});

export async function handleReport(state: AkbankSimState, req: Request): Promise<Response> {
  const body = new Uint8Array(await req.arrayBuffer());
  if (!sameSignature(authHash(AKBANK_SIM_ACCOUNT.secretKey, body), req.headers.get("auth-hash") ?? ""))
    return json(401, { code: "401", message: "Sanal pos üye işyeri bilgilerinizi kontrol ediniz" });
  let doc: Doc;
  try {
    doc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body)) as Doc;
  } catch {
    return json(400, { code: "400", message: "Geçersiz istek" });
  }
  if (textOf(doc.terminal, "terminalSafeId") !== AKBANK_SIM_ACCOUNT.terminalSafeId)
    return json(200, { responseCode: "VPS-1001", responseMessage: "Üye işyeri veya terminal bulunamadı." });
  const start = fromRequestDateTime(textOf(doc.report, "startDateTime"));
  const end = fromRequestDateTime(textOf(doc.report, "endDateTime"));
  if (start === null || end === null || end < start || end - start >= DAY_MS)
    return json(200, { responseCode: "VPS-1075", responseMessage: "Geçerli rapor tarih aralığı giriniz." });
  const within = (t: SimTxn) => t.atMs >= start && t.atMs <= end;
  const rows = state
    .orders()
    .flatMap((o) => [
      ...(within(o.sale) ? [row(o, o.sale, o.voided ? "V" : o.refunds.length > 0 ? "R" : "N")] : []),
      ...o.refunds.filter(within).map((r) => row(o, r, "N")),
    ]);
  const data = gzipSync(Buffer.from(JSON.stringify({ txnDetailList: rows }), "utf8")).toString("base64");
  return json(200, { responseCode: "VPS-0000", responseMessage: "BAŞARILI", data });
}
