import { html, type PageResponse, renderPage, toHttpUrl } from "../../../html";
import { toSimProfile } from "../../test-cards";
import { callbackFields } from "./mpi";
import { PAYFLEX_SIM_OTP, PAYFLEX_SIM_PATHS } from "./settings";
import { type PayflexSimState, randomToken } from "./state";

// The simulated issuer ACS and the MPI's TermUrl, the buyer's pages: the ACS asks for the one-time
// code, posts its PaRes to the TermUrl, and the TermUrl makes the browser post the (unsigned) 3D
// result to the merchant's SuccessUrl or FailureUrl.

/** A card whose ACS only "attempts" (Status A): kasa refuses it, as only Y is a full 3D. */
export const PAYFLEX_ATTEMPT_CARD = "4000007700000000";

const errorPage = (text: string, nonce: string): PageResponse =>
  renderPage({
    title: "3D Secure hata",
    body: html`<div class="error"><h1>3D Secure</h1><p id="payflex-sim-error">${text}</p></div>`,
    nonce,
    formActions: [],
    status: 200,
  });

function autoPost(action: string, fields: ReadonlyArray<readonly [string, string]>, nonce: string, id: string): PageResponse {
  const url = toHttpUrl(action);
  const inputs = fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  const body = html`<form id="${id}" method="post" action="${url.href}">
${inputs}
<p role="status">Yönlendiriliyorsunuz, lütfen bekleyin…</p>
<noscript><div class="actions"><button type="submit">Devam</button></div></noscript>
</form>
<script nonce="${nonce}">document.getElementById("${id}").submit();</script>`;
  // The merchant's callback answers with a redirect the bank cannot know (see the EST gate's page).
  return renderPage({ title: "3D Secure", body, nonce, formActions: [url.origin, "https:", "http:"] });
}

/** POST acs/auth: from the merchant's relay (PaReq, TermUrl, MD) the code page; with `otp`, the answer. */
export function handleAcs(state: PayflexSimState, form: Readonly<Record<string, string>>, nonce: string): PageResponse {
  const record = state.byMd.get(form.MD ?? "");
  if (record?.state !== "enrolled") return errorPage("Geçersiz 3D Secure isteği.", nonce);
  if (form.otp === undefined) {
    if (form.PaReq !== record.paReq || !(form.TermUrl ?? "").endsWith(PAYFLEX_SIM_PATHS.termUrl))
      return errorPage("PaReq veya TermUrl hatalı.", nonce);
    const masked = `${record.pan.slice(0, 6)}******${record.pan.slice(-4)}`;
    const lira = `${Math.floor(record.amount / 100)},${String(record.amount % 100).padStart(2, "0")} TL`;
    const body = html`<h1>3D Secure doğrulama</h1>
<p>Tutar: <strong id="payflex-sim-amount">${lira}</strong> · Kart: <code>${masked}</code></p>
<form method="post" action="${PAYFLEX_SIM_PATHS.acs}">
<input type="hidden" name="MD" value="${record.md}">
<input type="hidden" name="TermUrl" value="${form.TermUrl ?? ""}">
<label>Tek kullanımlık kod <input name="otp" inputmode="numeric" autocomplete="one-time-code" value=""></label>
<div class="actions"><button type="submit" name="action" value="confirm">Onayla</button></div>
</form>`;
    return renderPage({ title: "3D Secure", body, nonce, formActions: ["'self'"] });
  }
  const profile = toSimProfile(record.pan);
  if (record.pan === PAYFLEX_ATTEMPT_CARD) record.state = "attempted";
  else record.state = profile !== "auth_fails" && form.otp === PAYFLEX_SIM_OTP ? "authenticated" : "failed";
  const visa = record.pan.startsWith("4");
  record.eci = record.state === "authenticated" ? (visa ? "05" : "02") : record.state === "attempted" ? (visa ? "06" : "01") : "";
  record.cavv = record.state === "failed" ? "" : Buffer.from(randomToken(14), "hex").toString("base64");
  return autoPost(
    form.TermUrl ?? "",
    [
      ["PaRes", Buffer.from(`${record.id}:${record.state}`).toString("base64")],
      ["MD", record.md],
    ],
    nonce,
    "payflex-sim-pares",
  );
}

/** POST MPIAPI/MPI_Pares.aspx: the PaRes in, the 3D result posted by the browser to the merchant. */
export function handleTermUrl(state: PayflexSimState, form: Readonly<Record<string, string>>, nonce: string): PageResponse {
  const record = state.byMd.get(form.MD ?? "");
  if (!record || record.state === "enrolled") return errorPage("Geçersiz PaRes.", nonce);
  const status = record.state === "authenticated" ? "Y" : record.state === "attempted" ? "A" : "N";
  const fields = callbackFields({ ...record, status });
  return autoPost(status === "Y" ? record.successUrl : record.failureUrl, fields, nonce, "payflex-sim-callback");
}
