import type { CaptureResult, RefundResult } from "../gateway";
import { fromMinor } from "./order-id";
import { type XmlNode, xmlAt, xmlText } from "./xml";

// What a GVPSResponse means for kasa (docs/banks-garanti.md, "The protocol as kasa speaks it").
// Approved only on `Transaction/Response/Code` 00; an answer without a code is no answer (an
// unknown outcome).

export const APPROVED = "00";

/** A capture's bankReference: the order id and the sale's RetrefNum, which void and refund name. */
export const bankReferenceOf = (orderId: string, retrefNum: string): string => `${orderId}:${retrefNum}`;

export function readBankReference(reference: string): { orderId: string; retrefNum: string } {
  const at = reference.indexOf(":");
  return at < 0 ? { orderId: reference, retrefNum: "" } : { orderId: reference.slice(0, at), retrefNum: reference.slice(at + 1) };
}

export const codeOf = (answer: XmlNode): string | null => xmlText(answer, "Transaction/Response/Code") || null;

/** `ReasonCode: ErrorMsg` (or SysErrMsg), for the refund record and the log; never a secret. */
export function errMsgOf(answer: XmlNode): string | null {
  const msg = xmlText(answer, "Transaction/Response/ErrorMsg") || xmlText(answer, "Transaction/Response/SysErrMsg");
  const reason = xmlText(answer, "Transaction/Response/ReasonCode");
  if (msg && reason) return `${reason}: ${msg}`;
  return msg || reason || null;
}

export function captureAnswer(answer: XmlNode | null, orderId: string): CaptureResult {
  const code = answer === null ? null : codeOf(answer);
  if (answer === null || code === null) return { approved: null, detail: "no readable answer to sales" };
  if (code === APPROVED) {
    return {
      approved: true,
      authCode: xmlText(answer, "Transaction/AuthCode") ?? "",
      bankReference: bankReferenceOf(orderId, xmlText(answer, "Transaction/RetrefNum") ?? ""),
    };
  }
  return { approved: false, reason: code === "51" ? "insufficient_funds" : "declined", procReturnCode: code, errMsg: errMsgOf(answer) };
}

const NOT_FOUND = new Set(["0110", "0108"]);

/** `orderinq`: APPROVED is captured, no record or another status is failed, anything else unknown. */
export function orderInqAnswer(answer: XmlNode | null, orderId: string, amount: number | null): CaptureResult {
  const code = answer === null ? null : codeOf(answer);
  if (answer === null || code === null) return { approved: null, detail: "no readable answer to orderinq" };
  const reason = xmlText(answer, "Transaction/Response/ReasonCode") ?? "";
  if (code !== APPROVED) {
    if (code === "92" && NOT_FOUND.has(reason)) return { approved: false, reason: "declined", errMsg: "no record at the bank" };
    return { approved: null, detail: `orderinq answered ${code}/${reason}` };
  }
  const status = xmlText(answer, "Order/OrderInqResult/Status") ?? "";
  if (status !== "APPROVED") return { approved: false, reason: "declined", errMsg: `Status ${status || "none"}` };
  const authAmount = fromMinor(xmlText(answer, "Order/OrderInqResult/AuthAmount"));
  if (amount !== null && authAmount !== null && authAmount !== amount) {
    return { approved: null, detail: `orderinq approved another amount (${authAmount})` };
  }
  return {
    approved: true,
    authCode: xmlText(answer, "Order/OrderInqResult/AuthCode") ?? "",
    bankReference: bankReferenceOf(orderId, xmlText(answer, "Order/OrderInqResult/RetrefNum") ?? ""),
  };
}

export const refundResult = (status: RefundResult["status"], answer: XmlNode | null, reference: string | null): RefundResult => ({
  status,
  procReturnCode: answer ? codeOf(answer) : null,
  authCode: answer ? xmlText(answer, "Transaction/AuthCode") || null : null,
  errMsg: answer && status === "declined" ? errMsgOf(answer) : null,
  bankReference: reference,
  nextCheckAtMs: null,
});

export function refundAnswer(answer: XmlNode | null): RefundResult {
  const code = answer === null ? null : codeOf(answer);
  if (answer === null || code === null) return refundResult("pending", null, null);
  const reference = xmlText(answer, "Transaction/RetrefNum") || null;
  return refundResult(code === APPROVED ? "approved" : "declined", answer, reference);
}

/**
 * `orderhistoryinq`: how many approved transactions of `type` the order has, or null when the
 * answer says nothing (unknown). The `Type` and `Status` words are the simulator's reading of the
 * bank's (docs/banks-garanti.md, "What kasa assumed").
 */
export function countInHistory(answer: XmlNode | null, type: "void" | "refund"): number | null {
  const code = answer === null ? null : codeOf(answer);
  if (answer === null || code === null) return null;
  if (code !== APPROVED) return NOT_FOUND.has(xmlText(answer, "Transaction/Response/ReasonCode") ?? "") ? 0 : null;
  const list = xmlAt(answer, "Order/OrderHistInqResult/OrderTxnList");
  if (list === undefined) return null;
  return list.children.filter(
    (t) =>
      t.name === "OrderTxn" && (xmlText(t, "Type") ?? "").toLowerCase() === type && (xmlText(t, "Status") ?? "APPROVED") === "APPROVED",
  ).length;
}
