import { encodeFormBytes } from "../../form-bytes";
import { decodeIso88599, encodeIso88599 } from "../../iso-8859-9";
import { html, type PageResponse, renderPage, toHttpUrl } from "../../../html";
import type { GateCallback } from "./gate-callback";

// The gate's HTML: the auto-submitting callback form (posted as ISO-8859-9, as EST's is) and the
// error page; plus the reverse, for tests that post the callback without a browser.

const FORM_ID = "est-sim-callback";

export function callbackPage(callback: GateCallback, nonce: string): PageResponse {
  const action = toHttpUrl(callback.action);
  const inputs = callback.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${decodeIso88599(value)}">`);
  const body = html`<form id="${FORM_ID}" method="post" action="${action.href}" accept-charset="ISO-8859-9">
${inputs}
<p role="status">Yönlendiriliyorsunuz, lütfen bekleyin…</p>
<noscript><div class="actions"><button type="submit">Devam</button></div></noscript>
</form>
<script nonce="${nonce}">document.getElementById("${FORM_ID}").submit();</script>`;
  // Chromium applies form-action to every redirect after the post: kasa's callback answers 303 to
  // the partner's returnUrl, which a bank cannot know, so this bank page (like a real one) allows
  // any http(s) destination. kasa's own pages keep their exact origins.
  return renderPage({ title: "3D Secure", body, nonce, formActions: [action.origin, "https:", "http:"] });
}

/**
 * The `.96` fault: the 3d_pay gate approved the order, then the buyer's window closed. A page with
 * no form: nothing ever posts the callback.
 */
export function gateLostPage(nonce: string): PageResponse {
  const body = html`<div class="error">
<h1>Bağlantı kesildi</h1>
<p id="est-sim-lost">Ödeme onaylandı, ancak tarayıcı pencereyi kapattı: üye işyerine dönüş yapılmadı.</p>
</div>`;
  return renderPage({ title: "3D Secure", body, nonce, formActions: [], status: 200 });
}

/** EST answers a bad gate request with a 200 page saying why; `reason` never holds card data. */
export function gateErrorPage(reason: string, nonce: string): PageResponse {
  const body = html`<div class="error">
<h1>3D Secure işlemi başlatılamadı</h1>
<p id="est-sim-error">${reason}</p>
</div>`;
  return renderPage({ title: "3D Secure hata", body, nonce, formActions: [], status: 200 });
}

const unescapeHtml = (s: string): string =>
  s.replace(/&(?:#(\d+)|#x([0-9a-fA-F]+)|(amp|lt|gt|quot|apos));/g, (_m, dec?: string, hex?: string, named?: string) => {
    if (dec !== undefined) return String.fromCodePoint(Number.parseInt(dec, 10));
    if (hex !== undefined) return String.fromCodePoint(Number.parseInt(hex, 16));
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[named as "amp"];
  });

const attr = (tag: string, name: string): string | null => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? null : unescapeHtml(match[1]);
};

/** The gate page's form as the browser would post it: its action and an ISO-8859-9 urlencoded body. */
export function callbackFromGatePage(page: string): { action: string; body: string } {
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/.exec(page);
  if (!form) throw new Error("no form in the gate page");
  const action = attr(form[0].slice(0, form[0].indexOf(">") + 1), "action");
  if (action === null) throw new Error("gate form without action");
  const fields: Array<[string, Uint8Array]> = [];
  for (const input of form[1]?.match(/<input\b[^>]*>/g) ?? []) {
    const name = attr(input, "name");
    if (name !== null) fields.push([name, encodeIso88599(attr(input, "value") ?? "")]);
  }
  return { action, body: encodeFormBytes(fields) };
}
