import { pause } from "../../../pause";
import { toLira } from "../../../lira";
import { toSimProfile } from "../../test-cards";
import { fromLira } from "../answers";
import { parseCallbackForm } from "../callback";
import { childText, parseXml } from "../xml";
import { faultOf, type PayflexSimFault, SEARCH_DOWN_MS } from "./faults";
import { PAYFLEX_SIM_ACCOUNT } from "./settings";
import { type PayflexSimState, randomDigits, type SimTransaction } from "./state";

// The simulated VPOS: `prmstr` only; Sale checked against the MPI record as the bank does (1115
// no record, 1126 not authenticated or other data, 1116 ECI, 1117 CAVV, 1128 used, 1006 id reused);
// Cancel until the Istanbul day ends (then 2202), Refund only after it, with a running remainder.

const XML = { "Content-Type": "text/xml; charset=utf-8" };
const DAY_MS = 24 * 60 * 60 * 1000;
const istanbulDay = (ms: number): number => Math.floor((ms + 3 * 60 * 60 * 1000) / DAY_MS);

type Fields = Array<[string, string]>;

const answerXml = (fields: Fields): string =>
  `<?xml version="1.0" encoding="utf-8"?><VposResponse>${fields.map(([n, v]) => `<${n}>${v}</${n}>`).join("")}</VposResponse>`;

const short = (code: string, detail: string): Fields => [
  ["ResultCode", code],
  ["ResultDetail", detail],
  ["InstallmentTable", ""],
];

function full(t: SimTransaction, detail: string, nowMs: number): Fields {
  const fields: Fields = [
    ["MerchantId", PAYFLEX_SIM_ACCOUNT.merchantId],
    ["TransactionType", t.type],
    ["TransactionId", t.transactionId],
  ];
  if (t.reference) fields.push(["ReferenceTransactionId", t.reference]);
  fields.push(
    ["ResultCode", t.resultCode],
    ["ResultDetail", detail],
    ["InstallmentTable", ""],
    ["CampaignResult", ""],
    ["AuthCode", t.authCode],
    ["HostDate", hostDate(nowMs)],
    ["Rrn", t.rrn],
    ["TerminalNo", PAYFLEX_SIM_ACCOUNT.terminalNo],
    ["CurrencyAmount", toLira(t.amount)],
    ["CurrencyCode", "949"],
  );
  if (t.type === "Sale") fields.push(["OrderId", t.orderId], ["ThreeDSecureType", "2"], ["TransactionDeviceSource", "0"]);
  fields.push(["BatchNo", "1"], ["TLAmount", toLira(t.amount)]);
  return fields;
}

function hostDate(ms: number): string {
  const d = new Date(ms + 3 * 60 * 60 * 1000);
  return d.toISOString().replace(/[-:T]/g, "").slice(0, 14);
}

const newTransaction = (type: SimTransaction["type"], id: string, code: string, amount: number, nowMs: number): SimTransaction => ({
  type,
  transactionId: id,
  orderId: id,
  reference: null,
  resultCode: code,
  amount,
  authCode: code === "0000" ? randomDigits(6) : "000000",
  rrn: randomDigits(12),
  atMs: nowMs,
  canceled: false,
  refunded: 0,
  maskedPan: "",
});

type Get = (name: string) => string;

function sale(state: PayflexSimState, get: Get): { fields: Fields; commit: () => void; amount: number | null } {
  const id = get("TransactionId");
  const amount = fromLira(get("CurrencyAmount"));
  const e = state.enrollments.get(get("MpiTransactionId"));
  const refuse = (code: string, detail: string) => ({ fields: short(code, detail), commit: () => {}, amount });
  if (state.transactions.has(id)) return refuse("1006", "TransactionId daha önce kullanılmış.");
  if (!e) return refuse("1115", "MPI işlemi bulunamadı.");
  if (e.usedBy !== null) return refuse("1128", "MPI işlemi başka bir işlemde kullanılmış.");
  if (e.state !== "authenticated" || amount !== e.amount || get("Pan") !== e.pan || get("Expiry") !== `20${e.expiry}`)
    return refuse("1126", "MPI İşlemindeki veriler ile uyumsuz");
  if (get("ECI") !== e.eci) return refuse("1116", "ECI hatalı.");
  if (get("CAVV") !== e.cavv) return refuse("1117", "CAVV hatalı.");
  const declined = toSimProfile(e.pan) === "insufficient_funds";
  const t = newTransaction("Sale", id, declined ? "0051" : "0000", amount, state.nowMs());
  t.orderId = get("OrderId") || id;
  t.maskedPan = `${e.pan.slice(0, 6)}******${e.pan.slice(-4)}`;
  const commit = () => {
    e.usedBy = id;
    state.transactions.set(id, t);
  };
  return { fields: full(t, declined ? "Yetersiz bakiye." : "İŞLEM BAŞARILI", state.nowMs()), commit, amount };
}

function cancel(state: PayflexSimState, get: Get): { fields: Fields; commit: () => void } {
  const original = state.transactions.get(get("ReferenceTransactionId"));
  const none = () => {};
  if (original?.type !== "Sale" || original.resultCode !== "0000")
    return { fields: short("0540", "Orijinal işlem bulunamadı."), commit: none };
  if (original.canceled) return { fields: short("1083", "Referans islem daha önceden iptal edilmis."), commit: none };
  if (istanbulDay(original.atMs) !== istanbulDay(state.nowMs()))
    return { fields: short("2202", "İşlem iptal edilemez (batch kapalı)"), commit: none };
  const t = newTransaction("Cancel", `C${randomDigits(15)}`, "0000", original.amount, state.nowMs());
  t.reference = original.transactionId;
  return {
    fields: full(t, "İŞLEM BAŞARILI", state.nowMs()),
    commit: () => {
      original.canceled = true;
      state.transactions.set(t.transactionId, t);
    },
  };
}

function refund(state: PayflexSimState, get: Get): { fields: Fields; commit: () => void } {
  const original = state.transactions.get(get("ReferenceTransactionId"));
  const amount = fromLira(get("CurrencyAmount"));
  const none = () => {};
  if (original?.type !== "Sale" || original.resultCode !== "0000")
    return { fields: short("0540", "Orijinal işlem bulunamadı."), commit: none };
  if (original.canceled) return { fields: short("1124", "İşlem iptal edilmiş."), commit: none };
  // The simulator's choice for a refund before the batch closes (the real code is not known).
  if (istanbulDay(original.atMs) === istanbulDay(state.nowMs()))
    return { fields: short("1125", "Günsonu alınmamış işlem iade edilemez."), commit: none };
  if (original.refunded >= original.amount) return { fields: short("1059", "İşlemin tamamı iade edilmiş."), commit: none };
  if (amount === null || amount <= 0 || original.refunded + amount > original.amount)
    return { fields: short("0984", "İade tutarı satış tutarından büyük."), commit: none };
  const t = newTransaction("Refund", `R${randomDigits(15)}`, "0000", amount, state.nowMs());
  t.reference = original.transactionId;
  return {
    fields: full(t, "İŞLEM BAŞARILI", state.nowMs()),
    commit: () => {
      original.refunded += amount;
      state.transactions.set(t.transactionId, t);
    },
  };
}

async function faulty(
  state: PayflexSimState,
  fault: PayflexSimFault | null,
  xml: string,
  slowMs: number,
  signal: AbortSignal,
): Promise<Response> {
  switch (fault) {
    case ".91":
      await pause(slowMs, signal);
      return new Response(xml, { headers: XML });
    case ".92":
      return new Response("Internal Server Error", { status: 500 });
    case ".93":
      return new Response(xml.slice(0, xml.indexOf("<ResultCode>")), { headers: XML });
    case ".94":
      return new Response(
        "<html><head><title>Request Rejected</title></head><body>The requested URL was rejected. Please consult with your administrator.</body></html>",
        { headers: { "Content-Type": "text/html" } },
      );
    case ".95":
      state.searchDownUntilMs = state.nowMs() + SEARCH_DOWN_MS;
      return new Response("Internal Server Error", { status: 500 });
    default:
      return new Response(xml, { headers: XML });
  }
}

export async function handleVpos(state: PayflexSimState, req: Request, slowMs: number): Promise<Response> {
  const form = new Map(parseCallbackForm(new Uint8Array(await req.arrayBuffer())) ?? []);
  const prmstr = form.get("prmstr");
  const doc = prmstr === undefined ? null : parseXml(prmstr);
  if (doc?.name !== "VposRequest") {
    state.record({ kind: "other", id: "", resultCode: null, fault: null });
    return new Response("POX Request Adresine istek yapıyorsunuz. Mesaj Boş Geldi. İstek Xml Mesajını prmstr parametresi ile iletiniz.");
  }
  const get: Get = (name) => childText(doc, name) ?? "";
  const type = get("TransactionType");
  const id = type === "Sale" ? get("TransactionId") : get("ReferenceTransactionId");
  const kind = type === "Sale" || type === "Cancel" || type === "Refund" ? type : "other";
  if (get("MerchantId") !== PAYFLEX_SIM_ACCOUNT.merchantId || get("Password") !== PAYFLEX_SIM_ACCOUNT.password) {
    state.record({ kind, id, resultCode: "9039", fault: null });
    return new Response(answerXml(short("9039", "Üye işyeri bulunamadı.")), { headers: XML });
  }
  const outcome =
    type === "Sale" ? sale(state, get) : type === "Cancel" ? cancel(state, get) : type === "Refund" ? refund(state, get) : null;
  if (outcome === null) {
    state.record({ kind, id, resultCode: "1001", fault: null });
    return new Response(answerXml(short("1001", "Geçersiz işlem tipi.")), { headers: XML });
  }
  const fault = type === "Sale" ? faultOf(fromLira(get("CurrencyAmount"))) : null;
  if (fault !== ".94") outcome.commit();
  state.record({ kind, id, resultCode: fault === ".94" ? null : (outcome.fields.find(([n]) => n === "ResultCode")?.[1] ?? null), fault });
  return faulty(state, fault, answerXml(outcome.fields), slowMs, req.signal);
}
