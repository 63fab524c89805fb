import { html, type PageResponse, renderPage, toHttpUrl } from "../../../html";
import { toSimProfile } from "../../test-cards";
import { fromLira } from "../amounts";
import { callbackHash, formHash, sameSignature } from "../crypt";
import { parseForm } from "../form";
import { requestDateTime } from "../wire-time";
import { faultOf } from "./faults";
import { type AkbankSimAccount, AKBANK_SIM_ACCOUNT } from "./settings";
import { sale } from "./operations";
import { type AkbankSimState, newSecure, type ThreeDAuth } from "./state";

// POST /sim-akbank/securepay: the merchant's page posts the card here. Checks the form and its
// hash, runs the simulated 3D step by the test card's profile, remembers it (never the card), and
// answers a page that posts the signed callback to okUrl or failUrl. 3D_PAY also sells on the spot.

const REQUIRED = [
  "paymentModel",
  "txnCode",
  "merchantSafeId",
  "terminalSafeId",
  "orderId",
  "lang",
  "amount",
  "currencyCode",
  "installCount",
  "okUrl",
  "failUrl",
  "randomNumber",
  "requestDateTime",
  "creditCard",
  "expiredDate",
  "cvv",
  "hash",
] as const;

const isHttpUrl = (s: string): boolean => URL.canParse(s) && ["http:", "https:"].includes(new URL(s).protocol);
const toResponse = (page: PageResponse): Response => new Response(page.body, { status: page.status, headers: page.headers });

function errorPage(reason: string, nonce: string): Response {
  const body = html`<div class="error"><h1>3D Secure işlemi başlatılamadı</h1><p id="akbank-sim-error">${reason}</p></div>`;
  return toResponse(renderPage({ title: "3D Secure hata", body, nonce, formActions: [], status: 200 }));
}

/** The signed callback: the fields in order, `hashParams` naming every one, `hash` last. */
export function signedCallback(account: AkbankSimAccount, fields: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  const hashParams = fields.map(([n]) => n).join("+");
  const values = new Map(fields);
  return [
    ...fields.map(([n, v]) => [n, v] as [string, string]),
    ["hashParams", hashParams],
    ["hash", callbackHash(account.secretKey, hashParams, (n) => values.get(n))],
  ];
}

function callbackPage(action: string, fields: ReadonlyArray<readonly [string, string]>, nonce: string): Response {
  const url = toHttpUrl(action);
  const inputs = fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const body = html`<form id="akbank-sim-callback" method="post" action="${url.href}">
${inputs}
<p role="status">Yönlendiriliyorsunuz, lütfen bekleyin…</p>
<noscript><div class="actions"><button type="submit">Devam</button></div></noscript>
</form>
<script nonce="${nonce}">document.getElementById("akbank-sim-callback").submit();</script>`;
  // kasa's callback answers 303 to the partner's returnUrl, which a bank cannot know: like a real
  // bank page, this one lets the form's redirect go to any http(s) destination.
  return toResponse(renderPage({ title: "3D Secure", body, nonce, formActions: [url.origin, "https:", "http:"] }));
}

function lostPage(nonce: string): Response {
  const body = html`<div class="error"><h1>Bağlantı kesildi</h1><p id="akbank-sim-lost">Ödeme onaylandı, ancak tarayıcı pencereyi kapattı.</p></div>`;
  return toResponse(renderPage({ title: "3D Secure", body, nonce, formActions: [] }));
}

type Value = (name: string) => string;

/** What the gate refuses before any 3D step, in Turkish as the bank's page says it; null: acceptable. */
function formProblem(state: AkbankSimState, form: ReadonlyMap<string, string>, value: Value): string | null {
  const account = AKBANK_SIM_ACCOUNT;
  if (value("merchantSafeId") !== account.merchantSafeId || value("terminalSafeId") !== account.terminalSafeId)
    return "Geçersiz üye işyeri veya terminal.";
  const missing = REQUIRED.find((name) => !value(name));
  if (missing) return `Eksik alan: ${missing}`;
  if (!sameSignature(formHash(account.secretKey, Object.fromEntries(form)), value("hash"))) return "Hash değeri hatalı.";
  if (value("paymentModel") !== "3D" && value("paymentModel") !== "3D_PAY") return "Desteklenmeyen paymentModel.";
  const installCount = Number(value("installCount"));
  if (!/^\d+\.\d{2}$/.test(value("amount")) || !(installCount >= 1 && installCount <= 12)) return "Geçersiz tutar veya taksit.";
  if (!/^[0-9A-F]{128}$/.test(value("randomNumber")) || !state.freshRandom(value("randomNumber"))) return "Geçersiz randomNumber.";
  if (!/^[A-Za-z0-9-]{1,36}$/.test(value("orderId")) || state.order(value("orderId"))) return "Sipariş Numarası tekil olmalıdır.";
  if (!isHttpUrl(value("okUrl")) || !isHttpUrl(value("failUrl"))) return "Geçersiz okUrl veya failUrl.";
  return null;
}

/** 3D_PAY: the gate sells at once and the callback carries the sale's result (`.96`: it never comes). */
function payAtGate(
  state: AkbankSimState,
  auth: ThreeDAuth,
  common: ReadonlyArray<readonly [string, string]>,
  value: Value,
  nonce: string,
): Response {
  const o = sale(state, auth);
  o.commit();
  const approved = o.answer.responseCode === "VPS-0000";
  if (faultOf(auth.amountKurus) === ".96" && approved) return lostPage(nonce);
  const txn = (o.answer.transaction ?? {}) as Record<string, string>;
  const fields = signedCallback(AKBANK_SIM_ACCOUNT, [
    ["txnCode", "1000"],
    ["responseCode", String(o.answer.responseCode)],
    ["responseMessage", String(o.answer.responseMessage)],
    ["hostResponseCode", String(o.answer.hostResponseCode)],
    ["hostMessage", String(o.answer.hostMessage)],
    ...common,
    ["authCode", txn.authCode ?? ""],
    ["rrn", txn.rrn ?? ""],
    ["batchNumber", txn.batchNumber ?? ""],
    ["stan", txn.stan ?? ""],
  ]);
  return callbackPage(approved ? value("okUrl") : value("failUrl"), fields, nonce);
}

export async function handleGate(state: AkbankSimState, req: Request, nonce: string): Promise<Response> {
  const posted = parseForm(new Uint8Array(await req.arrayBuffer()));
  if (posted === null) return errorPage("Form okunamadı.", nonce);
  const form = new Map(posted);
  const value: Value = (name) => form.get(name) ?? "";
  const problem = formProblem(state, form, value);
  if (problem) return errorPage(problem, nonce);

  const account = AKBANK_SIM_ACCOUNT;
  const orderId = value("orderId");
  const profile = toSimProfile(value("creditCard"));
  if (!/^\d{12,19}$/.test(value("creditCard")) || profile === "auth_fails" || profile === "decline_at_3d") {
    const failed = signedCallback(account, [
      ["responseCode", "VPS-1279"],
      ["responseMessage", "BKM 3DS Server Doğrulama Başarısız"],
      ["orderId", orderId],
    ]);
    return callbackPage(value("failUrl"), [["txnCode", ""], ["merchantSafeId", ""], ["terminalSafeId", ""], ...failed], nonce);
  }
  const auth: ThreeDAuth = {
    orderId,
    amountKurus: fromLira(value("amount")) ?? 0,
    installCount: Number(value("installCount")),
    profile,
    secureEcomInd: value("creditCard").startsWith("4") ? "05" : "02",
    ...newSecure(),
    used: false,
  };
  state.remember(auth);
  const common = [
    ["txnDateTime", requestDateTime(state.nowMs())],
    ["merchantSafeId", account.merchantSafeId],
    ["terminalSafeId", account.terminalSafeId],
    ["orderId", orderId],
    ["amount", value("amount")],
    ["currencyCode", value("currencyCode")],
    ["installCount", value("installCount")],
  ] as const;
  if (value("paymentModel") === "3D_PAY") return payAtGate(state, auth, common, value, nonce);
  const fields = signedCallback(account, [
    ["txnCode", "3001"],
    ["responseCode", "VPS-0000"],
    ["responseMessage", "BAŞARILI"],
    ...common,
    ["secureId", auth.secureId],
    ["secureEcomInd", auth.secureEcomInd],
    ["secureData", auth.secureData],
    ["secureMd", auth.secureMd],
  ]);
  return callbackPage(value("okUrl"), fields, nonce);
}
