import { pause } from "../../../pause";
import { fromLira } from "../amounts";
import { authHash, sameSignature } from "../crypt";
import { fromRequestDateTime } from "../wire-time";
import { type AkbankSimFault, faultOf } from "./faults";
import { type Outcome, orderHistory, refund, refused, sale, voidOrder } from "./operations";
import { AKBANK_SIM_ACCOUNT } from "./settings";
import type { AkbankSimState } from "./state";

// POST …/transaction/process: a JSON request signed in `auth-hash` in, a JSON answer out. HTTP 401
// for a wrong signature or terminal, 400 for a body that is not the JSON asked for, otherwise 200
// with the bank's responseCode, except where a fault (faults.ts) says otherwise.

const JSON_HEADERS = { "Content-Type": "application/json; charset=utf-8" };
const FAULTY = new Set(["1000", "1002", "1003"]);
const TEN_MINUTES_MS = 10 * 60 * 1000;

type Doc = Record<string, unknown>;
const field = (doc: Doc | undefined, name: string): unknown => (doc && typeof doc === "object" ? doc[name] : undefined);
const text = (doc: unknown, name: string): string => {
  const v = field(doc as Doc, name);
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });

async function faulty(fault: AkbankSimFault | null, body: string, slowMs: number, signal: AbortSignal): Promise<Response> {
  switch (fault) {
    case ".91":
      await pause(slowMs, signal);
      return new Response(body, { status: 200, headers: JSON_HEADERS });
    case ".92":
      return new Response("Internal Server Error", { status: 500, headers: { "Content-Type": "text/plain" } });
    case ".93":
      return new Response("<html><body>Service Unavailable</body></html>", { status: 200, headers: { "Content-Type": "text/html" } });
    case ".94":
      return new Response(Uint8Array.from([0x00, 0xff, 0x1f, 0x8b, 0x7b, 0xfe, 0x9d, 0x00, 0x41, 0x7f, 0xc3, 0x28]), {
        status: 200,
        headers: JSON_HEADERS,
      });
    case ".95":
      return new Response(body.slice(0, Math.floor(body.length / 2)), { status: 200, headers: JSON_HEADERS });
    default:
      return new Response(body, { status: 200, headers: JSON_HEADERS });
  }
}

/** The envelope's own checks: terminal, date (Istanbul, within ten minutes) and a fresh random. */
function envelopeProblem(state: AkbankSimState, doc: Doc, txnCode: string): Outcome | null {
  const terminal = field(doc, "terminal") as Doc | undefined;
  if (
    text(terminal, "merchantSafeId") !== AKBANK_SIM_ACCOUNT.merchantSafeId ||
    text(terminal, "terminalSafeId") !== AKBANK_SIM_ACCOUNT.terminalSafeId
  )
    return refused("VPS-1001", "Üye işyeri veya terminal bulunamadı.");
  const at = fromRequestDateTime(text(doc, "requestDateTime"));
  // The order history is also what `connections check` sends from another process's clock.
  if (at === null || (txnCode !== "1010" && Math.abs(at - state.nowMs()) > TEN_MINUTES_MS))
    return refused("VPS-1073", "Geçerli talep tarihi giriniz.");
  const random = text(doc, "randomNumber");
  if (!/^[0-9A-F]{128}$/i.test(random) || !state.freshRandom(random)) return refused("VPS-1074", "Geçerli randomNumber giriniz.");
  return null;
}

function operate(state: AkbankSimState, doc: Doc, txnCode: string): Outcome {
  const orderId = text(field(doc, "order"), "orderId");
  if (txnCode === "1000") {
    const secure = field(doc, "secureTransaction") as Doc | undefined;
    const auth = state.byMd(text(secure, "secureMd"));
    const txn = field(doc, "transaction");
    const amount = fromLira(text(txn, "amount"));
    if (!auth || auth.orderId !== orderId || text(secure, "secureId") !== auth.secureId || text(secure, "secureData") !== auth.secureData)
      return refused("VPS-1279", "3D doğrulama bilgisi bulunamadı.", amount);
    if (amount !== auth.amountKurus || text(txn, "installCount") !== String(auth.installCount))
      return refused("VPS-1020", "Tutar veya taksit 3D ile uyuşmuyor.", amount);
    return sale(state, auth);
  }
  if (txnCode === "1003") return voidOrder(state, state.order(orderId));
  if (txnCode === "1002") {
    const txn = field(doc, "transaction");
    return refund(state, state.order(orderId), txn === undefined ? null : fromLira(text(txn, "amount")));
  }
  if (txnCode === "1010") return orderHistory(state, orderId);
  return refused("VPS-1002", "Desteklenmeyen işlem tipi.");
}

export async function handleApi(state: AkbankSimState, req: Request, slowMs: number): Promise<Response> {
  const body = new Uint8Array(await req.arrayBuffer());
  const atMs = state.nowMs();
  if (!sameSignature(authHash(AKBANK_SIM_ACCOUNT.secretKey, body), req.headers.get("auth-hash") ?? "")) {
    state.record({ orderId: "", txnCode: "", amount: null, atMs, responseCode: null, fault: null });
    return json(401, { code: "401", message: "Sanal pos üye işyeri bilgilerinizi kontrol ediniz" });
  }
  let doc: Doc;
  try {
    doc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body)) as Doc;
    if (typeof doc !== "object" || doc === null) throw new Error("not an object");
  } catch {
    return json(400, { code: "400", message: "Geçersiz istek" });
  }
  const txnCode = text(doc, "txnCode");
  const orderId = text(field(doc, "order"), "orderId");
  const o = envelopeProblem(state, doc, txnCode) ?? operate(state, doc, txnCode);
  const fault = FAULTY.has(txnCode) ? faultOf(o.faultKurus) : null;
  if (fault !== ".92") o.commit();
  const amount = fromLira(text(field(doc, "transaction"), "amount"));
  state.record({ orderId, txnCode, amount, atMs, responseCode: fault === ".92" ? null : String(o.answer.responseCode), fault });
  return faulty(fault, JSON.stringify(o.answer), slowMs, req.signal);
}
