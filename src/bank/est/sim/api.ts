import { pause } from "../../../pause";
import { parseFormBytes } from "../../form-bytes";
import { readXml, type XmlValue, writeXml } from "../xml";
import { fromLira as liraToKurus } from "../amounts";
import { trxDate } from "./clock";
import { type EstSimFault, faultOf } from "./faults";
import { apiError, authorise, credit, type Outcome, orderHistory, orderStatus, voidOrder } from "./operations";
import type { EstSimState } from "./state";

// POST /fim/api: a CC5Request (raw XML, or `DATA=<xml>`) in, a CC5Response out, always HTTP 200
// with ISO-8859-9 XML, except where a fault (see faults.ts) says otherwise.

const XML_HEADERS = { "Content-Type": "text/xml; charset=ISO-8859-9" };
const FAULTY_TYPES = new Set(["Auth", "Void", "Credit"]);

/** A form-encoded `DATA=%3C...` body percent-decoded; raw XML and raw `DATA=<...>` pass as they are. */
function xmlBytes(body: Uint8Array): Uint8Array {
  const head = String.fromCharCode(...body.subarray(0, 6));
  if (head.startsWith("DATA=%")) {
    const data = parseFormBytes(body).find(([name]) => name === "DATA");
    if (data) return data[1];
  }
  return body;
}

const text = (value: XmlValue | undefined): string => (typeof value === "string" ? value : "");

function responseXml(oid: string, o: Outcome, nowMs: number): Uint8Array {
  const numCode = o.response === "Approved" ? "00" : o.errorCode.replace(/\D/g, "") || o.procReturnCode;
  return writeXml("CC5Response", {
    OrderId: oid,
    GroupId: o.response === "Error" ? "" : oid,
    Response: o.response,
    AuthCode: o.authCode,
    HostRefNum: o.hostRefNum,
    ProcReturnCode: o.procReturnCode,
    TransId: o.transId,
    ErrMsg: o.errMsg,
    Extra: { SETTLEID: "", TRXDATE: trxDate(nowMs), ERRORCODE: o.errorCode, NUMCODE: numCode, ...o.extra },
  });
}

async function faulty(fault: EstSimFault | null, xml: Uint8Array, slowMs: number, signal: AbortSignal): Promise<Response> {
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
    case ".95":
      return new Response(xml.slice(0, Math.floor(xml.length / 2)), { status: 200, headers: XML_HEADERS });
    default:
      return new Response(new Uint8Array(xml), { status: 200, headers: XML_HEADERS });
  }
}

export async function handleApi(state: EstSimState, req: Request, slowMs: number): Promise<Response> {
  const body = new Uint8Array(await req.arrayBuffer());
  const atMs = state.nowMs();
  const doc = readXml(xmlBytes(body), "CC5Request");
  if (doc === null) {
    const o = apiError("XML parse error", "CORE-2000");
    state.record({ clientId: "", oid: "", type: "", total: null, atMs, procReturnCode: o.procReturnCode, fault: null });
    return faulty(null, responseXml("", o, atMs), slowMs, req.signal);
  }
  const extra = typeof doc.Extra === "object" ? doc.Extra : {};
  const query = (name: string) => text(extra[name]).toUpperCase() === "QUERY";
  const type = text(doc.Type) || (query("ORDERSTATUS") ? "ORDERSTATUS" : query("ORDERHISTORY") ? "ORDERHISTORY" : "");
  const clientId = text(doc.ClientId);
  const oid = text(doc.OrderId);
  const totalText = text(doc.Total);
  const total = totalText === "" ? null : liraToKurus(totalText);
  const account = state.account(clientId);

  let o: Outcome;
  if (!account || text(doc.Name) !== account.apiUser || text(doc.Password) !== account.apiPassword) {
    o = apiError("Kullanici adi veya sifre hatali.", "CORE-2001");
  } else if (type === "Auth") {
    const number = text(doc.Number);
    o = authorise(state, { clientId, oid, totalKurus: total, threeD: state.byMd(number), xid: text(doc.PayerTxnId) });
  } else if (type === "Void") {
    o = voidOrder(state, clientId, oid);
  } else if (type === "Credit") {
    o = credit(state, clientId, oid, total);
  } else if (type === "ORDERSTATUS") {
    o = orderStatus(state, clientId, oid);
  } else if (type === "ORDERHISTORY") {
    o = orderHistory(state, clientId, oid);
  } else {
    o = apiError("Desteklenmeyen islem tipi.", "CORE-2003");
  }

  const fault = account && FAULTY_TYPES.has(type) ? faultOf(o.faultKurus) : null;
  if (fault !== ".92") o.commit();
  state.record({ clientId, oid, type, total, atMs, procReturnCode: fault === ".92" ? null : o.procReturnCode, fault });
  return faulty(fault, responseXml(oid, o, atMs), slowMs, req.signal);
}
