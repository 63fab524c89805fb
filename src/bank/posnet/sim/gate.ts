import { html, type PageResponse, renderPage, toHttpUrl } from "../../../html";
import { callbackSign, macEquals } from "../crypt";
import { newHex } from "./random";
import type { PosnetSimState } from "./state";

// POST /3DSWebService/YKBPaymentService: the browser brings the three strings of one
// oosRequestData answer (once only). The simulated 3D authentication asks the buyer nothing; the
// answer is a page that posts MerchantPacket, BankPacket and Sign to merchantReturnURL.

const FORM_ID = "posnet-sim-callback";

const isHttpUrl = (s: string): boolean => URL.canParse(s) && ["http:", "https:"].includes(new URL(s).protocol);

const toResponse = (page: PageResponse): Response => new Response(page.body, { status: page.status, headers: page.headers });

/** The bank answers a bad gate request with a 200 page saying why (the "image only" page of the real one). */
function gateErrorPage(reason: string, nonce: string): PageResponse {
  const body = html`<div class="error">
<h1>3D Secure işlemi başlatılamadı</h1>
<p id="posnet-sim-error">${reason}</p>
</div>`;
  return renderPage({ title: "3D Secure hata", body, nonce, formActions: [], status: 200 });
}

export function callbackPage(action: string, fields: ReadonlyArray<readonly [string, string]>, nonce: string): PageResponse {
  const url = toHttpUrl(action);
  const inputs = fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const body = html`<form id="${FORM_ID}" method="post" action="${url.href}">
${inputs}
<p role="status">Yönlendiriliyorsunuz, lütfen bekleyin…</p>
<noscript><div class="actions"><button type="submit">Devam</button></div></noscript>
</form>
<script nonce="${nonce}">document.getElementById("${FORM_ID}").submit();</script>`;
  // kasa's callback answers 303 to the partner's returnUrl, which a bank cannot know, and Chromium
  // applies form-action to that redirect: this bank page (like a real one) allows any http(s) one.
  return renderPage({ title: "3D Secure", body, nonce, formActions: [url.origin, "https:", "http:"] });
}

export async function handleGate(state: PosnetSimState, req: Request, nonce: string): Promise<Response> {
  const form = new URLSearchParams(new TextDecoder("latin1").decode(await req.arrayBuffer()));
  const value = (name: string) => (form.getAll(name).length === 1 ? (form.get(name) as string) : "");
  const fail = (reason: string) => toResponse(gateErrorPage(reason, nonce));
  const account = state.accountByMerchant(value("mid"));
  if (!account || value("posnetID") !== account.posnetId) return fail("Geçersiz üye işyeri (mid / posnetID).");
  const session = state.sessions.get(value("posnetData"));
  if (!session || session.merchantId !== account.merchantId) return fail("Oturum bulunamadı (posnetData).");
  if (!macEquals(session.data2, value("posnetData2")) || !macEquals(session.sign, value("digest")))
    return fail("Oturum verileri uyuşmuyor.");
  if (session.atGate) return fail("Bu oturum daha önce kullanıldı.");
  const returnUrl = value("merchantReturnURL");
  if (!isHttpUrl(returnUrl)) return fail("Geçersiz merchantReturnURL.");
  session.atGate = true;
  const merchantPacket = newHex(64);
  const bankPacket = newHex(48);
  const sign = callbackSign(merchantPacket, bankPacket, account.encKey);
  const mdStatus = session.profile === "auth_fails" ? "0" : "1";
  state.packets.set(merchantPacket, { merchantPacket, bankPacket, sign, session, mdStatus, tran: null });
  const fields = [
    ["MerchantPacket", merchantPacket],
    ["BankPacket", bankPacket],
    ["Sign", sign],
  ] as const;
  return toResponse(callbackPage(returnUrl, fields, nonce));
}
