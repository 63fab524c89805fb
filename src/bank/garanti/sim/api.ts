import { pause } from "../../../pause";
import { hashData } from "../crypt";
import { parseFormBytes } from "../../form-bytes";
import { fromMinor } from "../order-id";
import { readXml, writeXml, type XmlNode, xmlText } from "../xml";
import type { GarantiSimAccount } from "./accounts";
import { provDate } from "./clock";
import { faultOf, type GarantiSimFault } from "./faults";
import { gvpsError, orderHistory, orderInq, type Outcome, refund, sales, voidSale } from "./operations";
import type { GarantiSimState } from "./state";

// POST /VPServlet: a GVPSRequest (raw XML, `data=<xml>` or `data=<urlencoded xml>`) in, a
// GVPSResponse out, always HTTP 200 with UTF-8 XML, except where a fault (faults.ts) says otherwise.

const XML_HEADERS = { "Content-Type": "application/xml; charset=utf-8" };
const FAULTY_TYPES = new Set(["sales", "void", "refund"]);
const REFUND_USER_TYPES = new Set(["void", "refund"]);

/** The XML of a form-encoded `data=` body; a raw body passes as it is. */
function xmlBytes(body: Uint8Array): Uint8Array {
  const head = String.fromCharCode(...body.subarray(0, 5)).toLowerCase();
  if (head === "data=") return parseFormBytes(body).find(([name]) => name.toLowerCase() === "data")?.[1] ?? body;
  return body;
}

function responseXml(doc: XmlNode | null, o: Outcome, nowMs: number): Uint8Array {
  const t = (path: string) => (doc ? (xmlText(doc, path) ?? "") : "");
  const approved = o.code === "00";
  return writeXml("GVPSResponse", [
    ["Mode", t("Mode")],
    [
      "Terminal",
      [
        ["ProvUserID", t("Terminal/ProvUserID")],
        ["UserID", t("Terminal/UserID")],
        ["ID", t("Terminal/ID")],
        ["MerchantID", t("Terminal/MerchantID")],
      ],
    ],
    ["Customer", [["IPAddress", t("Customer/IPAddress")]]],
    ["Order", [["OrderID", t("Order/OrderID")], ["GroupID", ""], ...o.order]],
    [
      "Transaction",
      [
        [
          "Response",
          [
            ["Source", o.source],
            ["Code", o.code],
            ["ReasonCode", o.reasonCode],
            ["Message", approved ? "Approved" : "Declined"],
            ["ErrorMsg", o.errorMsg],
            ["SysErrMsg", ""],
          ],
        ],
        ["RetrefNum", o.retrefNum],
        ["AuthCode", o.authCode],
        ["BatchNum", approved ? "004001" : ""],
        ["SequenceNum", ""],
        ["ProvDate", provDate(nowMs)],
        ["CardNumberMasked", ""],
        ["CardHolderName", ""],
        ["CardType", ""],
        ["HashData", ""],
        ["HostMsgList", ""],
      ],
    ],
  ]);
}

async function faulty(fault: GarantiSimFault | null, xml: Uint8Array, slowMs: number, signal: AbortSignal): Promise<Response> {
  switch (fault) {
    case ".91":
      // The caller's own timeout ends the wait: a stopping server has nothing to wait for.
      await pause(slowMs, signal);
      return new Response(new Uint8Array(xml), { status: 200, headers: XML_HEADERS });
    case ".92":
      return new Response("Internal Server Error", { status: 500, headers: { "Content-Type": "text/plain" } });
    case ".93":
      return new Response("<html><body>Service Unavailable</body></html>", { status: 200, headers: { "Content-Type": "text/html" } });
    case ".94":
      return new Response(Uint8Array.from([0x00, 0xff, 0x1f, 0x8b, 0x3c, 0xfe, 0x9d, 0x00, 0x41, 0x7f, 0xc3, 0x28]), {
        status: 200,
        headers: XML_HEADERS,
      });
    case ".95": {
      const text = new TextDecoder().decode(xml);
      return new Response(text.slice(0, text.indexOf("<Code>") + 6), { status: 200, headers: XML_HEADERS });
    }
    default:
      return new Response(new Uint8Array(xml), { status: 200, headers: XML_HEADERS });
  }
}

/** The user and HashData of the request, checked with the password of its type. */
function authenticated(account: GarantiSimAccount, doc: XmlNode, type: string): boolean {
  const refundUser = REFUND_USER_TYPES.has(type);
  const user = refundUser ? account.refundUserId : account.provUserId;
  const password = refundUser ? account.refundPassword : account.provPassword;
  if (xmlText(doc, "Terminal/ProvUserID") !== user || xmlText(doc, "Terminal/MerchantID") !== account.merchantId) return false;
  const expected = hashData(
    {
      orderId: xmlText(doc, "Order/OrderID") ?? "",
      terminalId: account.terminalId,
      cardNumber: xmlText(doc, "Card/Number") ?? "",
      amount: xmlText(doc, "Transaction/Amount") ?? "",
      currencyCode: xmlText(doc, "Transaction/CurrencyCode") ?? "",
    },
    password,
  );
  return xmlText(doc, "Terminal/HashData") === expected;
}

function decide(state: GarantiSimState, doc: XmlNode, type: string, amount: number | null): Outcome {
  const terminalId = xmlText(doc, "Terminal/ID") ?? "";
  const orderId = xmlText(doc, "Order/OrderID") ?? "";
  const account = state.account(terminalId);
  if (!account || !authenticated(account, doc, type)) return gvpsError("0651", "Güvenlik kodu hatalı (HashData) veya kullanıcı geçersiz.");
  const refundReq = { terminalId, orderId, amount, originalRetrefNum: xmlText(doc, "Transaction/OriginalRetrefNum") ?? "" };
  switch (type) {
    case "sales":
      return sales(state, { terminalId, orderId, amount, md: xmlText(doc, "Transaction/Secure3D/Md") ?? "" });
    case "void":
      return voidSale(state, refundReq);
    case "refund":
      return refund(state, refundReq);
    case "orderinq":
      return orderInq(state, terminalId, orderId);
    case "orderhistoryinq":
      return orderHistory(state, terminalId, orderId);
    default:
      return gvpsError("0001", "Desteklenmeyen işlem tipi.");
  }
}

export async function handleApi(state: GarantiSimState, req: Request, slowMs: number): Promise<Response> {
  const body = new Uint8Array(await req.arrayBuffer());
  const atMs = state.nowMs();
  const doc = readXml(xmlBytes(body));
  if (doc === null || doc.name !== "GVPSRequest") {
    state.record({ terminalId: "", orderId: "", type: "", amount: null, atMs, code: "92", fault: null });
    return faulty(null, responseXml(null, gvpsError("0002", "XML okunamadı."), atMs), slowMs, req.signal);
  }
  const type = xmlText(doc, "Transaction/Type") ?? "";
  const amount = fromMinor(xmlText(doc, "Transaction/Amount"));
  const o = decide(state, doc, type, amount);
  // A request refused for its credentials is answered plainly: faults play a bank that took the request.
  const fault = FAULTY_TYPES.has(type) && o.reasonCode !== "0651" ? faultOf(o.faultKurus) : null;
  if (fault !== ".92") o.commit();
  const terminalId = xmlText(doc, "Terminal/ID") ?? "";
  const orderId = xmlText(doc, "Order/OrderID") ?? "";
  state.record({ terminalId, orderId, type, amount, atMs, code: fault === ".92" ? null : o.code, fault });
  return faulty(fault, responseXml(doc, o, atMs), slowMs, req.signal);
}
