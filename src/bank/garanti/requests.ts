import type { GarantiConfig } from "./config";
import { hashData } from "./crypt";
import type { XmlTree } from "./xml";

// The GVPSRequest element trees kasa sends to `VPServlet` (docs/banks-garanti.md, "The protocol as
// kasa speaks it"): the provision (`sales` after 3D), `void`, `refund`, `orderinq` and
// `orderhistoryinq`. Sales and queries go as the provision user with SecurityData of its password;
// void and refund as the refund user with the refund password, or the bank refuses the HashData.

export const CURRENCY = "949";
/** The queries' Amount: the bank wants one, and the public library sends this constant. */
export const QUERY_AMOUNT = "100";

export type GarantiTxnType = "sales" | "void" | "refund" | "orderinq" | "orderhistoryinq";

export interface Secure3d {
  cavv: string;
  eci: string;
  xid: string;
  md: string;
}

export interface RequestInput {
  type: GarantiTxnType;
  orderId: string;
  amount: string;
  installment: string;
  /** The buyer's address; kasa's own calls with no buyer send 127.0.0.1. */
  ip: string;
  secure3d?: Secure3d;
  /** The sale's RetrefNum, for void and refund. */
  originalRetrefNum?: string;
}

const usesRefundUser = (type: GarantiTxnType): boolean => type === "void" || type === "refund";

export function requestTree(config: GarantiConfig, input: RequestInput): XmlTree {
  const refundUser = usesRefundUser(input.type);
  const user = refundUser ? config.refundUserId : config.provUserId;
  const password = refundUser ? config.refundPassword : config.provPassword;
  const hash = hashData(
    { orderId: input.orderId, terminalId: config.terminalId, cardNumber: "", amount: input.amount, currencyCode: CURRENCY },
    password,
  );
  const transaction: Array<readonly [string, string | XmlTree]> = [
    ["Type", input.type],
    ["InstallmentCnt", input.installment],
    ["Amount", input.amount],
    ["CurrencyCode", CURRENCY],
    ["CardholderPresentCode", input.secure3d ? "13" : "0"],
    ["MotoInd", "N"],
  ];
  if (input.secure3d) {
    const s = input.secure3d;
    transaction.push([
      "Secure3D",
      [
        ["AuthenticationCode", s.cavv],
        ["SecurityLevel", s.eci],
        ["TxnID", s.xid],
        ["Md", s.md],
      ],
    ]);
  }
  if (input.originalRetrefNum !== undefined) transaction.push(["OriginalRetrefNum", input.originalRetrefNum]);
  return [
    ["Mode", config.mode],
    ["Version", "512"],
    [
      "Terminal",
      [
        ["ProvUserID", user],
        ["UserID", user],
        ["HashData", hash],
        ["ID", config.terminalId],
        ["MerchantID", config.merchantId],
      ],
    ],
    ["Customer", [["IPAddress", input.ip]]],
    ["Order", [["OrderID", input.orderId]]],
    ["Transaction", transaction],
  ];
}

/** A query about an order (`orderinq`, `orderhistoryinq`): no buyer, the constant amount. */
export const queryInput = (type: "orderinq" | "orderhistoryinq", orderId: string): RequestInput => ({
  type,
  orderId,
  amount: QUERY_AMOUNT,
  installment: "",
  ip: "127.0.0.1",
});
