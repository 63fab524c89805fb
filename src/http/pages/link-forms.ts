import { formatTry } from "../../domain/checks/money";
import { linkUrlOf } from "../../domain/link-checkout/paths";
import type { InstallmentOptionJson } from "../../domain/installments/types";
import { html, raw, type PageResponse, type SafeHtml } from "../../html";
import { installmentText, linkButton, payFormActions, renderLinkPage } from "./link-html";
import { LINK_PAGE_SCRIPT } from "./link-script";
import { linkSummary } from "./link-views";
import type { LinkRow } from "../../store/rows";

// The forms of a payable link (docs/checkout.md, Payment link pages; docs/decisions.md, Readings of the contract). Without JavaScript the buyer goes in steps: the
// first 8 digits (step 1), the options (step 2), the card form with the chosen count (step 3).
// With JavaScript the page's script hides step 1 and shows the one-page form, whose installment
// table follows the typed card number. Field names are the handoff's (`pan`, `expireMonth`,
// `expireYear`, `cv2`) plus `installment`. Every input has a label; card inputs carry
// inputmode="numeric" and their autocomplete cc-* token.

/** Shared by every link page that shows forms. */
export interface LinkFormContext {
  link: LinkRow;
  merchant: string;
  baseUrl: string;
  nonce: string;
}

const cardNumberField = (value: string, hint: string) => html`<div class="field">
<label for="pan">Kart numarası</label>
<input id="pan" name="pan" type="text" inputmode="numeric" autocomplete="cc-number" pattern="[0-9 ]{13,23}" maxlength="23"
 required value="${value}" aria-describedby="pan-hint">
<p id="pan-hint" class="hint">${hint}</p>
</div>`;

const expiryAndCvvFields = html`<div class="row">
<div class="field"><label for="expireMonth">Son kullanma ayı</label>
<input id="expireMonth" name="expireMonth" type="text" inputmode="numeric" autocomplete="cc-exp-month" pattern="0[1-9]|1[0-2]"
 maxlength="2" placeholder="AA" required></div>
<div class="field"><label for="expireYear">Son kullanma yılı</label>
<input id="expireYear" name="expireYear" type="text" inputmode="numeric" autocomplete="cc-exp-year" pattern="[0-9]{2}"
 maxlength="2" placeholder="YY" required></div>
<div class="field"><label for="cv2">Güvenlik kodu</label>
<input id="cv2" name="cv2" type="text" inputmode="numeric" autocomplete="cc-csc" pattern="[0-9]{3,4}" maxlength="4" required></div>
</div>`;

/** The options as radios; the first is chosen unless `checked` names another. */
export function optionsFieldset(options: readonly InstallmentOptionJson[], checked: number | null = null): SafeHtml {
  const chosen = options.some((o) => o.installmentCount === checked) ? checked : (options[0]?.installmentCount ?? null);
  const rows = options.map((o) => {
    const id = `installment-${o.installmentCount}`;
    return html`<div class="option"><input type="radio" id="${id}" name="installment" value="${o.installmentCount}" required${
      o.installmentCount === chosen && raw(" checked")
    }><label for="${id}"><span>${installmentText(o.installmentCount)}</span><span class="total">${formatTry(o.totalAmount ?? 0)}</span></label></div>`;
  });
  return html`<fieldset><legend>Taksit seçenekleri</legend>${rows}</fieldset>`;
}

/** Step 1 without JavaScript: the first 8 digits. `problem` re-renders it with the reason (400). */
function binStepForm(c: LinkFormContext, problem: string | null): SafeHtml {
  const describedBy = problem === null ? "bin-hint" : "bin-hint bin-problem";
  return html`<form id="bin-form" method="post" action="${linkUrlOf(c.baseUrl, "installments", c.link.token)}">
<div class="field">
<label for="bin">Kart numaranızın ilk 8 hanesi</label>
<input id="bin" name="bin" type="text" inputmode="numeric" autocomplete="off" pattern="[0-9]{8}" maxlength="8" required
 aria-describedby="${describedBy}" aria-invalid="${problem === null ? "false" : "true"}">
<p id="bin-hint" class="hint">Taksit seçenekleri kartınıza göre gösterilir.</p>
${problem !== null && html`<p id="bin-problem" class="problem" role="alert">${problem}</p>`}
</div>
<div class="actions"><button type="submit">Taksit seçeneklerini göster</button></div>
</form>`;
}

/** The one-page form the script reveals; hidden (and inert) without JavaScript. */
function onePageForm(c: LinkFormContext): SafeHtml {
  return html`<form id="pay-form" method="post" action="${linkUrlOf(c.baseUrl, "pay", c.link.token)}" data-options-url="${linkUrlOf(c.baseUrl, "options", c.link.token)}" hidden>
${cardNumberField("", "Kartın ön yüzündeki numaranın tamamı; taksit seçenekleri aşağıda görünür.")}
<div id="options"></div>
<p id="options-status" class="hint status" role="status" aria-live="polite"></p>
${expiryAndCvvFields}
<div class="actions"><button id="pay-submit" type="submit" disabled>Öde</button></div>
</form>`;
}

/** `GET /l/{token}` of a payable link: summary, step 1, the one-page form and its script. */
export function linkPayPage(c: LinkFormContext, binProblem: string | null = null): PageResponse {
  const body = html`${linkSummary(c.link, c.merchant)}
${binStepForm(c, binProblem)}
${onePageForm(c)}
<script nonce="${c.nonce}">${raw(LINK_PAGE_SCRIPT)}</script>`;
  return renderLinkPage({
    title: "Ödeme",
    body,
    nonce: c.nonce,
    formActions: payFormActions(c.baseUrl, c.link),
    connect: [c.baseUrl],
    status: binProblem === null ? 200 : 400,
  });
}

/** Card facts the BIN table gave, for the buyer to recognise the card; nothing when unresolved. */
export type CardFacts = { cardBank: string | null; cardBrand: string | null };

/** Step 2 without JavaScript: the options for the typed BIN. */
export function linkOptionsPage(c: LinkFormContext, bin: string, card: CardFacts, options: readonly InstallmentOptionJson[]): PageResponse {
  const facts = [card.cardBank, card.cardBrand].filter((f): f is string => f !== null).join(" · ");
  const body = html`<p class="muted">${c.merchant}</p>
<h1>Taksit seçimi</h1>
<p>Kartınız <strong>${bin}</strong> ile başlıyor${facts !== "" && html` (${facts})`}.</p>
<form id="options-form" method="post" action="${linkUrlOf(c.baseUrl, "card", c.link.token)}">
<input type="hidden" name="bin" value="${bin}">
${optionsFieldset(options)}
<div class="actions"><button type="submit">Devam</button></div>
</form>
${linkButton(linkUrlOf(c.baseUrl, "page", c.link.token), "Başka bir kart")}`;
  return renderLinkPage({ title: "Taksit seçimi", body, nonce: c.nonce, formActions: [c.baseUrl] });
}

/** Step 3 without JavaScript: the card form for the chosen option; the number starts as the BIN. */
export function linkCardPage(c: LinkFormContext, bin: string, option: InstallmentOptionJson): PageResponse {
  const body = html`<p class="muted">${c.merchant}</p>
<h1>Kart bilgileri</h1>
<dl>
<dt>Ödeme</dt><dd>${installmentText(option.installmentCount)}</dd>
<dt>Ödenecek toplam</dt><dd>${formatTry(option.totalAmount ?? 0)}</dd>
</dl>
<form id="card-form" method="post" action="${linkUrlOf(c.baseUrl, "pay", c.link.token)}">
<input type="hidden" name="installment" value="${option.installmentCount}">
${cardNumberField(bin, "Kartın ön yüzündeki numaranın tamamı.")}
${expiryAndCvvFields}
<div class="actions"><button type="submit">Öde</button></div>
</form>
${linkButton(linkUrlOf(c.baseUrl, "page", c.link.token), "Taksit seçimini değiştir")}`;
  return renderLinkPage({ title: "Kart bilgileri", body, nonce: c.nonce, formActions: payFormActions(c.baseUrl, c.link) });
}
