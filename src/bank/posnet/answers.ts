import type { CaptureResult, RefundResult } from "../gateway";
import { childrenNamed, child, textOf, type XmlNode } from "./xml";

// What Posnet's answers mean (docs/banks-posnet.md, "One charge per attempt" and "Unknown
// outcomes"). Approved is `approved` `1` with an empty `respCode`; `0` is a decline; `2` ("already
// processed", 0127) says nothing about the outcome, so it is asked about with `agreement` like a
// lost answer. A missing answer is null.

const respOf = (answer: XmlNode): string | null => {
  const code = textOf(answer, "respCode") ?? "";
  const text = textOf(answer, "respText") ?? "";
  return code || text ? `${code} ${text}`.trim() : null;
};

export function captureAnswer(answer: XmlNode | null, bankReference: string): CaptureResult {
  if (answer === null) return { approved: null, detail: "no readable answer to oosTranData" };
  const approved = textOf(answer, "approved");
  const code = textOf(answer, "respCode") ?? "";
  if (approved === "1" && code === "") return { approved: true, authCode: textOf(answer, "authCode") ?? "", bankReference };
  if (approved === "0") {
    return {
      approved: false,
      reason: code === "0051" ? "insufficient_funds" : "declined",
      procReturnCode: code || null,
      errMsg: respOf(answer),
    };
  }
  return { approved: null, detail: `oosTranData answered approved ${approved ?? "none"} ${code}`.trim() };
}

/** The `transaction` elements of an agreement answer, as state and status pairs. */
export const transactionsOf = (answer: XmlNode) =>
  childrenNamed(child(answer, "transactions"), "transaction").map((t) => ({
    state: textOf(t, "state") ?? "",
    txnStatus: textOf(t, "txnStatus") ?? "",
    authCode: textOf(t, "authCode") ?? "",
  }));

/** Agreement about a sale: approved where a completed Sale and no reverse is recorded; no record is failed. */
export function statusAnswer(answer: XmlNode | null, bankReference: string): CaptureResult {
  if (answer === null) return { approved: null, detail: "no readable answer to agreement" };
  const approved = textOf(answer, "approved");
  if (approved === "0" && textOf(answer, "respCode") === "0123")
    return { approved: false, reason: "declined", errMsg: "no record at the bank" };
  if (approved !== "1") return { approved: null, detail: `agreement answered ${respOf(answer) ?? "nothing usable"}` };
  const transactions = transactionsOf(answer);
  const sale = transactions.find((t) => t.state === "Sale");
  if (sale === undefined) return { approved: false, reason: "declined", errMsg: "no sale recorded at the bank" };
  if (transactions.some((t) => t.state === "Reverse" && t.txnStatus === "1")) {
    return { approved: false, reason: "declined", errMsg: "the sale is reversed at the bank" };
  }
  if (sale.txnStatus === "1") return { approved: true, authCode: sale.authCode, bankReference };
  return { approved: null, detail: `agreement: sale txnStatus ${sale.txnStatus || "none"}` };
}

export const refundResult = (status: RefundResult["status"], answer: XmlNode | null, reference: string | null): RefundResult => ({
  status,
  procReturnCode: answer ? textOf(answer, "respCode") || null : null,
  authCode: answer ? textOf(answer, "authCode") || null : null,
  errMsg: answer && status === "declined" ? respOf(answer) : null,
  bankReference: reference,
  nextCheckAtMs: null,
});

/** A reverse or return answer; `approved 2` and no answer are pending (asked about, never re-sent). */
export function refundAnswer(answer: XmlNode | null): RefundResult {
  if (answer === null) return refundResult("pending", null, null);
  const approved = textOf(answer, "approved");
  const hostlogkey = textOf(answer, "hostlogkey") || null;
  if (approved === "1" && !textOf(answer, "respCode")) return refundResult("approved", answer, hostlogkey);
  if (approved === "0") return refundResult("declined", answer, hostlogkey);
  return refundResult("pending", answer, null);
}

/** How many completed transactions of `state` the agreement answer lists; null when it did not answer. */
export function countOf(answer: XmlNode | null, state: "Reverse" | "Return"): number | null {
  if (answer === null) return null;
  const approved = textOf(answer, "approved");
  if (approved === "0" && textOf(answer, "respCode") === "0123") return 0;
  if (approved !== "1") return null;
  return transactionsOf(answer).filter((t) => t.state === state && t.txnStatus === "1").length;
}
