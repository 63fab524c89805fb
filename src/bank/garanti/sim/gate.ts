import type { PageResponse } from "../../../html";
import { toSimProfile } from "../../test-cards";
import { type FormHashInput, hexHashEquals, secure3dHash } from "../crypt";
import { parseFormBytes } from "../../form-bytes";
import { fromMinor } from "../order-id";
import { faultOf } from "./faults";
import { decideThreeD, type GatePayment, gateCallbackFields } from "./gate-callback";
import { callbackPage, gateErrorPage, gateLostPage } from "./gate-page";
import { sales } from "./operations";
import { newRnd } from "./random";
import type { GarantiSimState } from "./state";

// POST /servlet/gt3dengine: the merchant's page posts the card here. Checks the request as the
// bank would (fields, apiversion 512, secure3dhash), runs the simulated 3D authentication,
// remembers it (never the card), and answers a page that posts the signed callback. The 3D_PAY
// model also makes the sale on the spot.

const REQUIRED = [
  "secure3dsecuritylevel",
  "mode",
  "apiversion",
  "terminalprovuserid",
  "terminaluserid",
  "terminalmerchantid",
  "terminalid",
  "txntype",
  "txnamount",
  "txncurrencycode",
  "orderid",
  "successurl",
  "errorurl",
  "customeripaddress",
  "cardnumber",
  "cardexpiredatemonth",
  "cardexpiredateyear",
  "cardcvv2",
  "secure3dhash",
] as const;

const isHttpUrl = (s: string): boolean => URL.canParse(s) && ["http:", "https:"].includes(new URL(s).protocol);

const toResponse = (page: PageResponse): Response => new Response(page.body, { status: page.status, headers: page.headers });

function luhn(pan: string): boolean {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let d = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Every problem with the posted form (never a card value), [] when the bank takes it. */
function problemsOf(state: GarantiSimState, v: (name: string) => string): string[] {
  const account = state.account(v("terminalid"));
  if (!account) return ["Geçersiz terminal (terminalid)."];
  const problems = REQUIRED.filter((name) => v(name) === "").map((name) => `Eksik alan: ${name}`);
  if (v("apiversion") !== "512") problems.push("Desteklenmeyen apiversion: yalnızca 512.");
  if (!["3D", "3D_PAY"].includes(v("secure3dsecuritylevel"))) problems.push("Desteklenmeyen secure3dsecuritylevel.");
  if (!["TEST", "PROD"].includes(v("mode"))) problems.push("Geçersiz mode.");
  if (v("terminalprovuserid") !== account.provUserId || v("terminaluserid") !== account.provUserId) problems.push("Geçersiz kullanıcı.");
  if (v("terminalmerchantid") !== account.merchantId) problems.push("Geçersiz üye işyeri numarası.");
  if (v("txntype") !== "sales") problems.push("Desteklenmeyen txntype.");
  if (!/^[1-9]\d{0,14}$/.test(v("txnamount"))) problems.push("Geçersiz tutar (txnamount).");
  if (v("txncurrencycode") !== "949") problems.push("Geçersiz para birimi.");
  if (!/^(|[2-9]|1[0-2])$/.test(v("txninstallmentcount"))) problems.push("Geçersiz taksit sayısı.");
  if (!/^[A-Za-z0-9]{1,36}$/.test(v("orderid"))) problems.push("Geçersiz sipariş numarası.");
  else if (state.seenOrder(account.terminalId, v("orderid"))) problems.push("Sipariş numarası daha önce kullanılmış.");
  if (!isHttpUrl(v("successurl")) || !isHttpUrl(v("errorurl"))) problems.push("Geçersiz successurl veya errorurl.");
  if (!/^\d{12,19}$/.test(v("cardnumber")) || !luhn(v("cardnumber"))) problems.push("Geçersiz kart numarası.");
  if (!/^(0[1-9]|1[0-2])$/.test(v("cardexpiredatemonth")) || !/^\d{2}$/.test(v("cardexpiredateyear")))
    problems.push("Geçersiz son kullanma tarihi.");
  if (!/^\d{3,4}$/.test(v("cardcvv2"))) problems.push("Geçersiz CVV2.");
  const signed = Object.fromEntries(
    ["terminalid", "orderid", "txnamount", "txncurrencycode", "successurl", "errorurl", "txntype", "txninstallmentcount"].map((n) => [
      n,
      v(n),
    ]),
  ) as unknown as FormHashInput;
  if (!hexHashEquals(secure3dHash(signed, account.storeKey, account.provPassword), v("secure3dhash")))
    problems.push("Güvenlik kodu hatalı (secure3dhash).");
  return problems;
}

export async function handleGate(state: GarantiSimState, req: Request, nonce: string): Promise<Response> {
  const posted = parseFormBytes(new Uint8Array(await req.arrayBuffer())).map(([n, b]) => [n, new TextDecoder().decode(b)] as const);
  const names = posted.map(([n]) => n);
  const form = new Map(posted);
  const v = (name: string) => form.get(name) ?? "";
  const problems = new Set(names).size !== names.length ? ["Bir alan iki kez gönderilmiş."] : problemsOf(state, v);
  if (problems.length > 0) return toResponse(gateErrorPage(problems, nonce));

  const account = state.account(v("terminalid"));
  if (!account) return toResponse(gateErrorPage(["Geçersiz terminal (terminalid)."], nonce));
  const pan = v("cardnumber");
  const profile = toSimProfile(pan);
  const amount = fromMinor(v("txnamount")) ?? 0;
  const threeD = decideThreeD(pan, profile);
  const auth = {
    md: threeD.md,
    terminalId: account.terminalId,
    orderId: v("orderid"),
    amount,
    installment: v("txninstallmentcount"),
    profile,
    mdStatus: threeD.mdStatus,
    used: false,
  };
  state.remember(auth);

  let payment: GatePayment | null = null;
  if (v("secure3dsecuritylevel") === "3D_PAY" && threeD.mdStatus === "1") {
    const o = sales(state, { terminalId: account.terminalId, orderId: auth.orderId, amount, md: auth.md });
    o.commit();
    if (faultOf(amount) === ".96" && o.code === "00") return toResponse(gateLostPage(nonce));
    const approved = o.code === "00";
    payment = {
      procReturnCode: o.code,
      response: approved ? "Approved" : "Declined",
      authCode: o.authCode,
      hostRefNum: o.retrefNum,
      errMsg: o.errorMsg,
    };
  }
  const fields = gateCallbackFields({ posted, pan, storeKey: account.storeKey, threeD, payment, rnd: newRnd() });
  const action = threeD.mdStatus === "1" ? v("successurl") : v("errorurl");
  return toResponse(callbackPage(action, fields, nonce));
}
