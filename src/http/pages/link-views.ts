import { formatIstanbul } from "../../domain/checks/istanbul-time";
import { maskPayerName } from "../../domain/checks/mask";
import { formatTry } from "../../domain/checks/money";
import { linkUrlOf } from "../../domain/link-checkout/paths";
import type { LinkPageState } from "../../domain/link-checkout/state";
import { html, type PageResponse, type SafeHtml } from "../../html";
import { installmentText, linkButton, renderLinkPage } from "./link-html";
import type { LinkRow } from "../../store/rows";
import type { PaymentRow } from "../../store/rows-money";

// What a link page says about the link and about an attempt's result (docs/checkout.md, Payment link pages). Pages are
// Turkish (lang="tr"); instants are Istanbul wall time (docs/contract.md, Identifiers and formats).

const ISTANBUL = "(TSİ)";

/** Amount, description, payer (masked, docs/contract.md, Items and payerName), expiry and the display items. */
export function linkSummary(link: LinkRow, merchant: string): SafeHtml {
  const items = link.items;
  return html`<p class="muted">${merchant}</p>
<h1>Ödeme</h1>
<p class="amount">${formatTry(link.amount)}</p>
${link.description !== null && html`<p>${link.description}</p>`}
<dl>
${link.payerName !== null && html`<dt>Ödeyen</dt><dd>${maskPayerName(link.payerName)}</dd>`}
<dt>Son geçerlilik</dt><dd>${formatIstanbul(link.expiresAtMs)} ${ISTANBUL}</dd>
</dl>
${
  items !== null &&
  html`<table>
<caption>Ürünler</caption>
<thead><tr><th scope="col">Ürün</th><th scope="col" class="num">Tutar</th></tr></thead>
<tbody>${items.map((i) => html`<tr><td>${i.name}${i.note !== null && html`<span class="note">${i.note}</span>`}</td><td class="num">${formatTry(i.amount)}</td></tr>`)}</tbody>
</table>`
}
${link.shareBps > 0 && html`<p class="muted">Ödenecek toplam, seçtiğiniz taksit seçeneğine göre belirlenir.</p>`}`;
}

type StateText = { title: string; message: string; status: number };

/** docs/contract.md#link-states states a buyer cannot pay in, each with its page (docs/checkout.md, Payment link pages: 410 / 410 / 200). */
const STATE_TEXTS: Record<Exclude<LinkPageState, "payable">, StateText> = {
  busy: {
    title: "Ödeme işlemi sürüyor",
    message:
      "Bu bağlantı için başlatılan bir ödeme şu anda banka doğrulamasında. Aynı anda ikinci bir ödeme başlatılamaz. " +
      "Doğrulama tamamlanmazsa bağlantı en geç yarım saat içinde yeniden ödenebilir.",
    status: 200,
  },
  completed: { title: "Bu bağlantı ile ödeme yapıldı", message: "Ödeme alındı. Bu bağlantı ile yeniden ödeme yapılamaz.", status: 200 },
  expired: {
    title: "Ödeme bağlantısının süresi doldu",
    message: "Bu bağlantı artık kullanılamaz. Yeni bir bağlantı için satıcıyla iletişime geçin.",
    status: 410,
  },
  cancelled: {
    title: "Ödeme bağlantısı iptal edildi",
    message: "Satıcı bu bağlantıyı iptal etti. Yeni bir bağlantı için satıcıyla iletişime geçin.",
    status: 410,
  },
};

/**
 * The page of a link that cannot be paid now. A busy link answers 200 to its own GET and 409 to
 * a step or pay POST (the second tab's attempt is what conflicts).
 */
export interface StatePageInput {
  link: LinkRow;
  merchant: string;
  state: Exclude<LinkPageState, "payable">;
  baseUrl: string;
  nonce: string;
  /** A step or pay POST rather than the page's own GET. */
  posted: boolean;
}

export function linkStatePage({ link, merchant, state, baseUrl, nonce, posted }: StatePageInput): PageResponse {
  const text = STATE_TEXTS[state];
  const body = html`<p class="muted">${merchant}</p>
<h1>${text.title}</h1>
<p>${text.message}</p>
<dl>
<dt>Tutar</dt><dd>${formatTry(link.amount)}</dd>
${link.description !== null && html`<dt>Açıklama</dt><dd>${link.description}</dd>`}
${state === "expired" && html`<dt>Sona erdi</dt><dd>${formatIstanbul(link.expiresAtMs)} ${ISTANBUL}</dd>`}
</dl>
${state === "busy" && linkButton(linkUrlOf(baseUrl, "page", link.token), "Sayfayı yenile")}`;
  const status = state === "busy" && posted ? 409 : text.status;
  return renderLinkPage({ title: text.title, body, nonce, formActions: [], status });
}

/** Unknown token: 404 with the catalog code, like the API's get (docs/contract.md, Read and cancel a link). */
export function unknownLinkPage(nonce: string, traceId: string): PageResponse {
  const body = html`<div class="error">
<h1>Ödeme bağlantısı bulunamadı</h1>
<p>Bağlantıyı kontrol edin ya da satıcıyla iletişime geçin.</p>
<dl><dt>Hata kodu</dt><dd><code>payment_link_not_found</code></dd><dt>İzleme no</dt><dd><code>${traceId}</code></dd></dl>
</div>`;
  return renderLinkPage({ title: "Ödeme bağlantısı bulunamadı", body, nonce, formActions: [], status: 404 });
}

export interface ProblemInput {
  title: string;
  message: string;
  /** Catalog code shown with the message; null on the generic pages (docs/decisions.md, Readings of the contract). */
  code: string | null;
  traceId: string;
  status: number;
  /** Where "back" leads: the link's page when it can still be paid, else nowhere. */
  retryUrl: string | null;
  retryLabel?: string;
  nonce: string;
}

/** A refusal or a failed attempt (docs/checkout.md, Error pages): message, code unless generic, traceId; no card data. */
export function linkProblemPage(p: ProblemInput): PageResponse {
  const body = html`<div class="error">
<h1>${p.title}</h1>
<p>${p.message}</p>
<dl>${p.code !== null && html`<dt>Hata kodu</dt><dd><code>${p.code}</code></dd>`}<dt>İzleme no</dt><dd><code>${p.traceId}</code></dd></dl>
</div>
${p.retryUrl !== null && linkButton(p.retryUrl, p.retryLabel)}`;
  return renderLinkPage({ title: p.title, body, nonce: p.nonce, formActions: [], status: p.status });
}

/** The hosted result page of a captured link payment (docs/contract.md, redirectUrl, no redirectUrl). */
export function linkSuccessPage(link: LinkRow, payment: PaymentRow, merchant: string, nonce: string): PageResponse {
  const body = html`<p class="muted">${merchant}</p>
<h1>Ödemeniz alındı</h1>
<p>Teşekkür ederiz. Bu sayfayı kapatabilirsiniz.</p>
<dl>
<dt>Ödenen tutar</dt><dd>${formatTry(payment.amount)}</dd>
<dt>Ödeme</dt><dd>${installmentText(payment.installment)}</dd>
${payment.maskedPan !== null && html`<dt>Kart</dt><dd>${payment.maskedPan}</dd>`}
${link.description !== null && html`<dt>Açıklama</dt><dd>${link.description}</dd>`}
<dt>İşlem no</dt><dd><code>${payment.code}</code></dd>
</dl>`;
  return renderLinkPage({ title: "Ödemeniz alındı", body, nonce, formActions: [] });
}
