import { child, childText, parseXml, type XmlNode } from "./xml";

// The bank's answers as kasa reads them (docs/banks-payflex.md): an enrollment's VERes, a
// VposResponse and a Search answer. A body that is not the expected document is null (no answer).

export const SUCCESS = "0000";

export interface Enrollment {
  /** VERes Status: Y enrolled; N, U, E or "" anything else. */
  status: string;
  paReq: string;
  acsUrl: string;
  termUrl: string;
  md: string;
  /** MessageErrorCode or ResultDetail/ErrorCode, for the log. */
  errorCode: string;
}

export function readEnrollment(text: string | null): Enrollment | null {
  const root = text === null ? null : parseXml(text);
  if (root?.name !== "IPaySecure") return null;
  const veres = child(child(root, "Message"), "VERes");
  const get = (name: string) => childText(veres, name) ?? "";
  const errorCode = childText(root, "MessageErrorCode") ?? childText(child(root, "ResultDetail"), "ErrorCode") ?? "";
  return { status: get("Status"), paReq: get("PaReq"), acsUrl: get("ACSUrl"), termUrl: get("TermUrl"), md: get("MD"), errorCode };
}

/** A VposResponse's fields by name (every one kasa reads is a leaf). */
export type VposAnswer = ReadonlyMap<string, string>;

export function readVposResponse(text: string | null): VposAnswer | null {
  const root = text === null ? null : parseXml(text);
  if (root?.name !== "VposResponse") return null;
  const fields = new Map<string, string>();
  for (const c of root.children) if (c.children.length === 0) fields.set(c.name, c.text);
  // A VposResponse without its ResultCode says nothing.
  return fields.has("ResultCode") ? fields : null;
}

/** One transaction of a Search answer. */
export interface SearchItem {
  transactionType: string;
  transactionId: string;
  orderId: string;
  resultCode: string;
  authCode: string;
  rrn: string;
  /** Kuruş from `CurrencyAmount` or `Amount`; null when neither is readable. */
  amount: number | null;
  canceled: boolean;
  reversed: boolean;
  totalRefund: number | null;
}

export type SearchAnswer = { ok: true; items: SearchItem[] } | { ok: false; code: string; message: string };

/** Lira with a dot and up to two decimals (`90.50`, `100`) -> kuruş; null for anything else. */
export function fromLira(text: string | null): number | null {
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text ?? "");
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

const flag = (node: XmlNode, name: string): boolean => (childText(node, name) ?? "").toLowerCase() === "true";

function itemOf(node: XmlNode): SearchItem {
  const get = (name: string) => childText(node, name) ?? "";
  return {
    transactionType: get("TransactionType"),
    transactionId: get("TransactionId"),
    orderId: get("OrderId"),
    resultCode: get("ResultCode"),
    authCode: get("AuthCode"),
    rrn: get("Rrn"),
    amount: fromLira(childText(node, "CurrencyAmount") || childText(node, "Amount")),
    canceled: flag(node, "IsCanceled"),
    reversed: flag(node, "IsReversed"),
    totalRefund: childText(node, "TotalRefundAmount") === null ? null : fromLira(childText(node, "TotalRefundAmount")),
  };
}

/**
 * The root's name is not in any source, so the answer is read by its children: a `ResponseInfo`
 * is required. A `ResponseCode` other than 0000 says the query failed, nothing about the order.
 */
export function readSearch(text: string | null): SearchAnswer | null {
  const root = text === null ? null : parseXml(text);
  const info = child(root ?? undefined, "ResponseInfo");
  if (!root || !info) return null;
  const code = childText(info, "ResponseCode") ?? "";
  if (code !== SUCCESS) return { ok: false, code, message: childText(info, "ResponseMessage") ?? "" };
  const list = child(root, "TransactionSearchResultInfo");
  const items = (list?.children ?? []).filter((c) => c.name === "TransactionSearchResultInfo").map(itemOf);
  return { ok: true, items };
}
