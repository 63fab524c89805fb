import { html, type PageResponse, renderPage, toHttpUrl } from "../../../html";
import { toSimProfile } from "../../test-cards";
import { fromLira } from "../amounts";
import { callbackHash, formHash, sameSignature } from "../crypt";
import { parseForm } from "../form";
import { requestDateTime } from "../wire-time";
import { faultOf } from "./faults";
import { type AkbankSimAccount, AKBANK_SIM_ACCOUNT } from "./settings";
import { sale } from "./operations";
import { type AkbankSimState, newSecure } from "./state";

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

export async function handleGate(state: AkbankSimState, req: Request, nonce: string): Promise<Response> {
  const posted = parseForm(new Uint8Array(await req.arrayBuffer()));
  if (posted === null) return errorPage("Form okunamadı.", nonce);
  const form = new Map(posted);
  const value = (name: string) => form.get(name) ?? "";
  const account = AKBANK_SIM_ACCOUNT;
  if (value("merchantSafeId") !== account.merchantSafeId || value("terminalSafeId") !== account.terminalSafeId)
    return errorPage("Geçersiz üye işyeri veya terminal.", nonce);
  const missing = REQUIRED.find((name) => !value(name));
  if (missing) return errorPage(`Eksik alan: ${missing}`, nonce);
  if (!sameSignature(formHash(account.secretKey, Object.fromEntries(form)), value("hash"))) return errorPage("Hash değeri hatalı.", nonce);
  const model = value("paymentModel");
  if (model !== "3D" && model !== "3D_PAY") return errorPage("Desteklenmeyen paymentModel.", nonce);
  const amountKurus = /^\d+\.\d{2}$/.test(value("amount")) ? fromLira(value("amount")) : null;
  const installCount = Number(value("installCount"));
  if (amountKurus === null || !(installCount >= 1 && installCount <= 12)) return errorPage("Geçersiz tutar veya taksit.", nonce);
  if (!/^[0-9A-F]{128}$/.test(value("randomNumber")) || !state.freshRandom(value("randomNumber")))
    return errorPage("Geçersiz randomNumber.", nonce);
  if (!/^[A-Za-z0-9-]{1,36}$/.test(value("orderId")) || state.order(value("orderId")))
    return errorPage("Sipariş Numarası tekil olmalıdır.", nonce);
  if (!isHttpUrl(value("okUrl")) || !isHttpUrl(value("failUrl"))) return errorPage("Geçersiz okUrl veya failUrl.", nonce);

  const orderId = value("orderId");
  const profile = toSimProfile(value("creditCard"));
  const common = [
    ["txnDateTime", requestDateTime(state.nowMs())],
    ["merchantSafeId", account.merchantSafeId],
    ["terminalSafeId", account.terminalSafeId],
    ["orderId", orderId],
    ["amount", value("amount")],
    ["currencyCode", value("currencyCode")],
    ["installCount", value("installCount")],
  ] as const;
  if (!/^\d{12,19}$/.test(value("creditCard")) || profile === "auth_fails" || profile === "decline_at_3d") {
    const failed = signedCallback(account, [
      ["responseCode", "VPS-1279"],
      ["responseMessage", "BKM 3DS Server Doğrulama Başarısız"],
      ["orderId", orderId],
    ]);
    return callbackPage(value("failUrl"), [["txnCode", ""], ["merchantSafeId", ""], ["terminalSafeId", ""], ...failed], nonce);
  }
  const auth = {
    orderId,
    amountKurus,
    installCount,
    profile,
    secureEcomInd: value("creditCard").startsWith("4") ? "05" : "02",
    ...newSecure(),
    used: false,
  };
  state.remember(auth);
  if (model === "3D") {
    const secure = [
      ["secureId", auth.secureId],
      ["secureEcomInd", auth.secureEcomInd],
      ["secureData", auth.secureData],
      ["secureMd", auth.secureMd],
    ] as const;
    const fields = signedCallback(account, [
      ["txnCode", "3001"],
      ["responseCode", "VPS-0000"],
      ["responseMessage", "BAŞARILI"],
      ...common,
      ...secure,
    ]);
    return callbackPage(value("okUrl"), fields, nonce);
  }
  const o = sale(state, auth);
  o.commit();
  if (faultOf(amountKurus) === ".96" && o.answer.responseCode === "VPS-0000") return lostPage(nonce);
  const txn = (o.answer.transaction ?? {}) as Record<string, string>;
  const fields = signedCallback(account, [
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
  return callbackPage(o.answer.responseCode === "VPS-0000" ? value("okUrl") : value("failUrl"), fields, nonce);
}
