import type { BankRecord, BankReconciler, ReconcileOrder, ReconcileRefund } from "../module";
import { fromMinor } from "./amounts";
import { callEst, extra, text, type EstAnswer, type EstTransport } from "./api";
import type { EstConfig } from "./config";
import { oidOf } from "./oid";

// EST's reconciliation facet (docs/reconciliation.md): ORDERSTATUS says what became of an order
// (TRANS_STAT, CAPTURE_AMT in minor units, HOST_REF_NUM), ORDERHISTORY lists its credits (one
// tab-separated TRX line each: type, TRANS_STAT, amounts, times, HostRefNum). The protocol has no
// list of a day's orders, so orders kasa never sent are not found here.

const UNKNOWN: BankRecord = { status: "unknown", amount: null, reference: null };
const NONE: BankRecord = { status: "none", amount: null, reference: null };
const noRecord = (answer: EstAnswer): boolean => /^No record found/i.test(text(answer, "ErrMsg") ?? "");

/** A = authorised today (a void still cancels it), C = pre-auth closed, S = settled by the bank's end of day. */
const APPROVED_STATES = new Set(["A", "C", "S"]);

function orderOf(answer: EstAnswer | null, oid: string): BankRecord {
  if (answer === null) return UNKNOWN;
  if (noRecord(answer)) return NONE;
  const stat = extra(answer, "TRANS_STAT");
  const amount = fromMinor(extra(answer, "CAPTURE_AMT")) ?? fromMinor(extra(answer, "ORIG_TRANS_AMT"));
  const reference = extra(answer, "HOST_REF_NUM") || text(answer, "HostRefNum") || null;
  if (stat !== undefined && APPROVED_STATES.has(stat) && (extra(answer, "PROC_RET_CD") ?? "00") === "00")
    return { status: "approved", amount, reference, captureReference: oid, voidable: stat === "A" };
  if (stat === "V" || stat === "CNCL") return { status: "voided", amount, reference };
  if (stat === "D" || stat === "ERR") return { status: "declined", amount, reference };
  return UNKNOWN;
}

/** The credit lines of ORDERHISTORY: approved ones, with their amount and HostRefNum. */
function creditsOf(answer: EstAnswer): Array<{ amount: number | null; reference: string }> {
  const count = fromMinor(extra(answer, "TRXCOUNT")) ?? 0;
  const credits: Array<{ amount: number | null; reference: string }> = [];
  for (let i = 1; i <= count; i++) {
    const cols = (extra(answer, `TRX${i}`) ?? "").split("\t");
    if (cols[0] !== "C" || !APPROVED_STATES.has(cols[1] ?? "")) continue;
    credits.push({ amount: fromMinor(cols[3]) ?? fromMinor(cols[2]), reference: cols[7] ?? "" });
  }
  return credits;
}

async function refundOf(config: EstConfig, transport: EstTransport, query: ReconcileRefund): Promise<BankRecord> {
  if (query.method === "void") {
    const order = orderOf(await callEst(config, transport, { OrderId: query.captureReference, Extra: { ORDERSTATUS: "QUERY" } }), "");
    if (order.status === "voided") return { ...order, reference: query.refundReference };
    return order.status === "unknown" ? UNKNOWN : NONE;
  }
  const answer = await callEst(config, transport, { OrderId: query.captureReference, Extra: { ORDERHISTORY: "QUERY" } });
  if (answer === null) return UNKNOWN;
  if (noRecord(answer)) return NONE;
  // Without a reference of its own (a marker kasa recorded, a repair asked again), any credit of the order answers.
  const credit = creditsOf(answer).find(
    (c) => query.refundReference === null || (c.reference !== "" && c.reference === query.refundReference),
  );
  return credit ? { status: "refunded", amount: credit.amount, reference: credit.reference } : NONE;
}

export function createEstReconciler(config: EstConfig, transport: EstTransport): BankReconciler {
  return {
    order: async (query: ReconcileOrder) => {
      const oid = oidOf(query.attemptId);
      return orderOf(await callEst(config, transport, { OrderId: oid, Extra: { ORDERSTATUS: "QUERY" } }), oid);
    },
    refund: (query) => refundOf(config, transport, query),
  };
}
