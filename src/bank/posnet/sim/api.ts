import { pause } from "../../../pause";
import { readXml, textOf, type XmlNode, xmlText } from "../xml";
import { encodeIso88599 } from "../../iso-8859-9";
import { faultOf, type PosnetSimFault } from "./faults";
import { agreement, giveBack, type Outcome, refused, requestData, resolve, reverse, tran } from "./operations";
import type { PosnetSimState } from "./state";

// POST /PosnetWebService/XML: `xmldata=` and a posnetRequest (url-encoded or raw) in, a
// posnetResponse out, always HTTP 200 with ISO-8859-9 XML, except where a fault (faults.ts) says
// otherwise. Unknown mid/tid pairs get 0148, as an unregistered IP does at the real bank.

const XML_HEADERS = { "Content-Type": "text/xml; charset=ISO-8859-9" };
const LEADING = new Set(["mid", "tid", "tranDateRequired", "username", "password"]);

function hexValue(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** The XML of the body: after `xmldata=`, percent-decoded when it was encoded, else as it came. */
export function xmlOfBody(body: Uint8Array): Uint8Array {
  const head = new TextDecoder("latin1").decode(body.subarray(0, 11));
  if (!head.startsWith("xmldata=")) return body;
  const value = body.subarray(8);
  if (!head.slice(8).startsWith("%")) return value;
  const out: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const c = value[i] as number;
    if (c === 0x2b) out.push(0x20);
    else if (c === 0x25 && hexValue(value[i + 1]) >= 0 && hexValue(value[i + 2]) >= 0) {
      out.push(hexValue(value[i + 1]) * 16 + hexValue(value[i + 2]));
      i += 2;
    } else out.push(c);
  }
  return Uint8Array.from(out);
}

async function faulty(fault: PosnetSimFault | null, xml: Uint8Array, slowMs: number, signal: AbortSignal): Promise<Response> {
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

function operate(state: PosnetSimState, doc: XmlNode): { operation: string; order: string; outcome: Outcome } {
  const op = doc.children.find((c) => !LEADING.has(c.name));
  const operation = op?.name ?? "";
  const account = state.account(textOf(doc, "mid") ?? "", textOf(doc, "tid") ?? "");
  const get = (name: string) => textOf(op, name) ?? "";
  const order = get("XID") || get("orderID");
  if (!account) return { operation, order, outcome: refused("0148", "INVALID MID TID IP. Hatalı IP:127.0.0.1") };
  switch (operation) {
    case "oosRequestData":
      return { operation, order, outcome: requestData(state, account, get) };
    case "oosResolveMerchantData":
      return { operation, order: state.packets.get(get("merchantData"))?.session.xid ?? "", outcome: resolve(state, account, get) };
    case "oosTranData":
      return { operation, order: state.packets.get(get("merchantData"))?.session.xid ?? "", outcome: tran(state, account, get) };
    case "agreement":
      return { operation, order, outcome: agreement(state, account, get("orderID")) };
    case "reverse":
      return { operation, order, outcome: reverse(state, account, get("orderID")) };
    case "return":
      return { operation, order, outcome: giveBack(state, account, get("orderID"), get("amount")) };
    default:
      return { operation, order, outcome: refused("0001", "DESTEKLENMEYEN İŞLEM") };
  }
}

export async function handleApi(state: PosnetSimState, req: Request, slowMs: number): Promise<Response> {
  const body = new Uint8Array(await req.arrayBuffer());
  const atMs = state.nowMs();
  const doc = readXml(xmlOfBody(body), "posnetRequest");
  const { operation, order, outcome } =
    doc === null ? { operation: "", order: "", outcome: refused("0002", "XML HATALI") } : operate(state, doc);
  const fault = faultOf(outcome.faultKurus);
  if (fault !== ".92") outcome.commit();
  const approved = typeof outcome.fields.approved === "string" ? outcome.fields.approved : null;
  state.record({ operation, order, atMs, approved: fault === ".92" ? null : approved, fault });
  return faulty(fault, encodeIso88599(xmlText("posnetResponse", outcome.fields)), slowMs, req.signal);
}
