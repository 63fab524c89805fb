import type { Deps } from "../deps";
import { handoffUrlOf } from "../domain/payments/handoff-paths";
import { createPanelPayment } from "../domain/payments/create";
import { createPaymentBody } from "../domain/payments/schema";
import type { PanelSession } from "../domain/users/sessions";
import { fail } from "../errors";
import { html, type SafeHtml } from "../html";
import type { PageRoute } from "../http/page";
import type { PanelRoute } from "./route";
import { checkedText, parseWith } from "../http/read";
import { csrfField, panelPage, toResponse } from "./layout";
import { money, toCount, toKurus } from "./format";
import { PAYMENT_STATES, plain } from "./words";
import type { PaymentRow } from "../store/rows-money";

// docs/panel.md: a payment taken in the panel (channel `panel`). Staff types amount, installment,
// terminal and partnerTxCode; kasa creates it by 4.5's rules and shows its own card form, which
// posts straight to the relay (/handoff), so the panel never reads the card; the bank's 3D step
// follows, and the callback's 303 comes back to /panel/new-payment/done.

const DONE_PATH = "/panel/new-payment/done";

async function entryForm(deps: Deps, session: PanelSession): Promise<SafeHtml> {
  const terminals = (await deps.store.q.catalog.terminals(session.user.partnerId)).filter((t) => t.active);
  return html`<form method="post" action="/panel/new-payment">${csrfField(session)}
<div class="field"><label for="amount">Tutar (TL)</label><input id="amount" name="amount" inputmode="decimal" required></div>
<div class="field"><label for="installment">Taksit sayısı</label><input id="installment" name="installment" inputmode="numeric" value="1"></div>
<div class="field"><label for="terminalId">Terminal</label><select id="terminalId" name="terminalId">${terminals.map((t) => html`<option value="${t.id}">${t.id}</option>`)}</select></div>
<div class="field"><label for="partnerTxCode">Sipariş kodu (API'de partnerTxCode)</label><input id="partnerTxCode" name="partnerTxCode" required></div>
<div class="field"><label for="description">Açıklama</label><input id="description" name="description"></div>
<div class="actions"><button type="submit">Devam: kart bilgileri</button></div>
</form>`;
}

function cardForm(deps: Deps, payment: PaymentRow, replay: boolean): SafeHtml {
  return html`<div class="notice" role="status"><p>${replay ? "Bu sipariş koduyla aynı ödeme zaten açık; onunla devam ediliyor." : "Ödeme oluşturuldu."} <code>${payment.code}</code> · ${money(payment.amount)} · ${payment.installment} taksit</p></div>
<form method="post" action="${handoffUrlOf(deps.config.baseUrl)}">
<input type="hidden" name="paymentRef" value="${payment.paymentRef}">
<div class="field"><label for="pan">Kart numarası</label><input id="pan" name="pan" inputmode="numeric" autocomplete="off" required></div>
<div class="filters"><div><label for="expireMonth">Son kullanma ayı (AA)</label><input id="expireMonth" name="expireMonth" inputmode="numeric" autocomplete="off" required></div>
<div><label for="expireYear">Son kullanma yılı (YY)</label><input id="expireYear" name="expireYear" inputmode="numeric" autocomplete="off" required></div>
<div><label for="cv2">Güvenlik kodu</label><input id="cv2" name="cv2" inputmode="numeric" autocomplete="off" required></div></div>
<div class="actions"><button type="submit">Öde (3D doğrulama)</button></div>
</form>`;
}

export function newPaymentPages(deps: Deps): PanelRoute[] {
  return [
    {
      method: "GET",
      path: "/panel/new-payment",
      auth: "panel:staff",
      handle: async (_e, ctx) =>
        panelPage(deps, ctx.session, { title: "Yeni ödeme", current: "/panel/new-payment", body: await entryForm(deps, ctx.session) }),
    },
    {
      method: "POST",
      path: "/panel/new-payment",
      auth: "panel:staff",
      action: "payment.create",
      async handle(_e, ctx) {
        const session = ctx.session;
        const form = ctx.form;
        const partner = (await deps.store.q.partners.get(session.user.partnerId)) ?? fail("not_found");
        const body = parseWith(
          createPaymentBody,
          checkedText({
            amount: toKurus("amount", form.amount ?? ""),
            installment: toCount("installment", form.installment, 1),
            terminalId: (form.terminalId ?? "").trim(),
            partnerTxCode: (form.partnerTxCode ?? "").trim(),
            description: (form.description ?? "").trim() || null,
            returnUrl: `${deps.config.baseUrl}${DONE_PATH}`,
          }),
        );
        const { returnUrl, ...input } = body;
        const out = await createPanelPayment(
          deps,
          partner,
          { ...input, installment: input.installment ?? 1, description: input.description ?? null },
          returnUrl,
        );
        return panelPage(deps, session, {
          title: "Kart bilgileri",
          current: "/panel/new-payment",
          body: cardForm(deps, out.payment, out.replay),
          status: out.replay ? 200 : 201,
        });
      },
    },
  ];
}

/** The end of the 3D step: a page row of its own, because it has no session. */
export function newPaymentResultPage(deps: Deps): PageRoute {
  return {
    // The bank's ACS posts to the callback from its own site, so the 303 that lands here is a
    // cross-site navigation that carries no SameSite=Strict cookie: this page needs no session
    // and shows only what its URL says; the link to the payment is same-site and does.
    method: "GET",
    path: DONE_PATH,
    handle(event) {
      const code = event.url.searchParams.get("paymentCode") ?? "";
      const status = event.url.searchParams.get("status") ?? "";
      if (!/^pay_[0-9a-z]{20}$/.test(code)) fail("validation_error", "paymentCode: not a payment code");
      const body = html`<h1>Ödeme sonucu: <span id="payment-status">${plain(PAYMENT_STATES, status)}</span></h1>
<p class="muted">Durum kodu: <code id="payment-status-code">${status}</code></p>
<p><a href="/panel/payments/${code}">Ödemeyi aç (${code})</a></p>`;
      return toResponse(deps, "Ödeme sonucu", body, 200);
    },
  };
}
