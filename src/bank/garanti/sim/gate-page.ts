import { autoSubmitForm, html, type PageResponse, renderPage, toHttpUrl } from "../../../html";

// The gate's HTML: the auto-submitting callback form and the page of a refused request.

export function callbackPage(action: string, fields: ReadonlyArray<readonly [string, string]>, nonce: string): PageResponse {
  const body = autoSubmitForm({ action, fields: Object.fromEntries(fields), nonce, label: "Devam" });
  // Chromium applies form-action to every redirect after the post: kasa's callback answers 303 to
  // the partner's returnUrl, which a bank cannot know, so this bank page (like a real one) allows
  // any http(s) destination.
  return renderPage({ title: "3D Secure", body, nonce, formActions: [toHttpUrl(action).origin, "https:", "http:"] });
}

/** The `.96` fault: the 3D_PAY gate approved the order, then the buyer's window closed. No form. */
export function gateLostPage(nonce: string): PageResponse {
  const body = html`<div class="error">
<h1>Bağlantı kesildi</h1>
<p id="garanti-sim-lost">Ödeme onaylandı, ancak tarayıcı pencereyi kapattı: üye işyerine dönüş yapılmadı.</p>
</div>`;
  return renderPage({ title: "3D Secure", body, nonce, formActions: [], status: 200 });
}

/**
 * A refused gate request. The real gate posts an unsigned `mdstatus=7` callback instead; the
 * simulator answers 400 with the list of problems, which is easier to diagnose (never card data).
 */
export function gateErrorPage(problems: readonly string[], nonce: string): PageResponse {
  const body = html`<div class="error">
<h1>3D Secure işlemi başlatılamadı</h1>
<ul id="garanti-sim-error">${problems.map((p) => html`<li>${p}</li>`)}</ul>
</div>`;
  return renderPage({ title: "3D Secure hata", body, nonce, formActions: [], status: 400 });
}
