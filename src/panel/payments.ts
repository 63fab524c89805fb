import type { Deps } from "../deps";
import { istanbulDate } from "../domain/checks/istanbul-time";
import { paymentByCode } from "../domain/payments/service";
import { createRefund } from "../domain/refunds/service";
import type { PanelSession } from "../domain/users/sessions";
import { roleAllows } from "../domain/users/service";
import { fail } from "../errors";
import { html, type SafeHtml } from "../html";
import { routeParams } from "../http/endpoint";
import type { PanelRoute } from "./route";
import { PANEL_PAGE_SIZE, PARTNER_REFUND_CODE_MAX_CHARS } from "../limits";
import { csrfField, panelPage, scroll, seeOther } from "./layout";
import { dateTr, money, toKurus, when } from "./format";
import type { PaymentRow, PaymentSummaryRow } from "../store/rows-money";
import { banksOf, cursorOf, filterForm, filterQuery, readFilters, toStoreFilter } from "./payment-filters";
import { ATTEMPT_STATES, CHANNELS, ROUTE_RULES, PAYMENT_STATES, REFUND_METHODS, REFUND_STATES, field, word } from "./words";

// docs/panel.md: payments (filter by state, dates, bank and failure reason, search by paymentCode
// or partnerTxCode, keyset-paged, exported as CSV by payments-csv.ts) and one payment with its refunds and the refund form. Every read is scoped to the
// user's partner: another partner's paymentCode is payment_not_found, as on the API.

function paymentsTable(rows: readonly PaymentSummaryRow[]): SafeHtml {
  if (rows.length === 0) return html`<p>Bu filtreyle ödeme yok.</p>`;
  const lines = rows.map(
    (p) =>
      html`<tr><td data-label="Ödeme kodu"><a href="/panel/payments/${encodeURIComponent(p.code)}">${p.code}</a></td><td data-label="Sipariş kodu">${p.partnerTxCode}</td><td data-label="Durum">${word(PAYMENT_STATES, p.status)}</td><td data-label="Tutar">${money(p.amount)}</td><td data-label="Taksit">${p.installment}</td><td data-label="Kanal">${word(CHANNELS, p.channel)}</td><td data-label="Oluşturma">${when(p.createdAtMs)}</td></tr>`,
  );
  return scroll(
    "Ödemeler",
    html`<table id="payments" class="cards"><caption class="muted">En yeni önce</caption><thead><tr><th scope="col">${field("paymentCode")}</th><th scope="col">${field("partnerTxCode")}</th><th scope="col">${field("status")}</th><th scope="col">Tutar</th><th scope="col">${field("installment")}</th><th scope="col">${field("channel")}</th><th scope="col">Oluşturma</th></tr></thead><tbody>${lines}</tbody></table>`,
  );
}

async function detailBody(deps: Deps, session: PanelSession, p: PaymentRow): Promise<SafeHtml> {
  const refunds = await deps.store.q.operator.refundsOfPayment(p.code);
  const facts = html`<dl>
<dt>${field("partnerTxCode")}</dt><dd>${p.partnerTxCode}</dd><dt>${field("status")}</dt><dd id="payment-state">${word(PAYMENT_STATES, p.status)}</dd><dt>Tutar</dt><dd>${money(p.amount)}</dd>
<dt>${field("installment")}</dt><dd>${p.installment}</dd><dt>${field("terminalId")}</dt><dd>${p.terminalId}</dd><dt>${field("channel")}</dt><dd>${word(CHANNELS, p.channel)}</dd>
<dt>Kart</dt><dd>${p.maskedPan ?? "—"}</dd><dt>Komisyon</dt><dd>${money(p.commissionAmount)}</dd>
<dt>Size geçecek</dt><dd>${money(p.netToPartner)}</dd><dt>Valör</dt><dd>${dateTr(p.expectedValueDate)}</dd>
<dt>İade edilen</dt><dd>${money(p.refundedAmount)}</dd><dt>Oluşturma</dt><dd>${when(p.createdAtMs)}</dd><dt>Tahsilat</dt><dd>${when(p.capturedAtMs)}</dd>
</dl>`;
  const refundRows = refunds.map(
    (r) =>
      html`<tr><td>${r.id}</td><td>${word(REFUND_METHODS, r.method)}</td><td>${word(REFUND_STATES, r.status)}</td><td>${money(r.amount)}</td><td>${when(r.createdAtMs)}</td></tr>`,
  );
  const refundTable =
    refunds.length === 0
      ? html`<p>İade yok.</p>`
      : scroll(
          "İadeler",
          html`<table><thead><tr><th scope="col">İade</th><th scope="col">Yöntem</th><th scope="col">Durum</th><th scope="col">Tutar</th><th scope="col">Tarih</th></tr></thead><tbody>${refundRows}</tbody></table>`,
        );
  const form =
    roleAllows(session.user.role, "staff") &&
    html`<h2>İade et</h2>
<form method="post" action="/panel/payments/${encodeURIComponent(p.code)}/refunds">${csrfField(session)}
<input type="hidden" name="partnerRefundCode" value="${`panel-${deps.ids.refundId()}`}">
<div class="field"><label for="amount">Tutar (TL; boş bırakılırsa kalanın tamamı)</label><input id="amount" name="amount" inputmode="decimal"></div>
<div class="actions"><button type="submit">İade et</button></div>
</form>`;
  // The bank that took each attempt (a router's member, docs/routing.md) and the rule that chose it:
  // the partner's terminals are read once, not once per attempt.
  const [rows, terminals] = await Promise.all([deps.store.q.attempts.byPayment(p.code), deps.store.q.catalog.terminals(p.partnerId)]);
  const bankOf = new Map(terminals.map((t) => [t.id, t.bank ?? t.connectionId]));
  const attempts = rows.map((a) => {
    const bank = (a.terminalId === null ? undefined : bankOf.get(a.terminalId)) ?? a.connectionId ?? "—";
    // A rule's name is the seed's own; only the default order has an API word of its own.
    const rule = a.route === null ? "—" : a.route.rule === "fallback" ? word(ROUTE_RULES, "fallback") : a.route.rule;
    return html`<tr><td>${a.id}</td><td>${word(ATTEMPT_STATES, a.status)}</td><td>${bank}</td><td>${rule}</td><td>${a.counted ? "evet" : "hayır"}</td><td>${when(a.createdAtMs)}</td></tr>`;
  });
  const attemptTable =
    attempts.length === 0
      ? html`<p>Kart denemesi yok.</p>`
      : scroll(
          "Kart denemeleri",
          html`<table><thead><tr><th scope="col">Deneme</th><th scope="col">Durum</th><th scope="col">Banka</th><th scope="col">Yönlendirme kuralı</th><th scope="col">Hakkı kullandı</th><th scope="col">Zaman</th></tr></thead><tbody>${attempts}</tbody></table>`,
        );
  return html`${facts}<h2>Kart denemeleri</h2>${attemptTable}<h2>İadeler</h2>${refundTable}${form}`;
}

export function paymentPages(deps: Deps): PanelRoute[] {
  return [
    {
      method: "GET",
      path: "/panel/payments",
      auth: "panel:viewer",
      async handle(event, ctx) {
        const session = ctx.session;
        const f = readFilters(event.url.searchParams);
        const partnerId = session.user.partnerId;
        const [rows, banks] = await Promise.all([
          deps.store.q.panel.payments(toStoreFilter(partnerId, f, event.url.searchParams.get("before"), PANEL_PAGE_SIZE + 1)),
          banksOf(deps, partnerId),
        ]);
        const shown = rows.slice(0, PANEL_PAGE_SIZE);
        const last = shown.at(-1);
        const next = rows.length > PANEL_PAGE_SIZE && last ? filterQuery(f, { before: cursorOf(last) }) : null;
        const today = istanbulDate(deps.clock.nowMs());
        const body = html`<p><a href="/panel/payments?from=${today}&amp;to=${today}">Bugünün ödemeleri</a></p>${filterForm(f, banks)}
<p><a href="/panel/payments.csv?${filterQuery(f)}" download>Bu listeyi CSV olarak indir (Excel)</a></p>
${paymentsTable(shown)}${next && html`<p><a href="/panel/payments?${next}">Daha eski ödemeler</a></p>`}`;
        return panelPage(deps, session, { title: "Ödemeler", current: "/panel/payments", body });
      },
    },
    {
      method: "GET",
      path: "/panel/payments/:code",
      auth: "panel:viewer",
      async handle(event, ctx) {
        const session = ctx.session;
        const p = await paymentByCode(deps, session.user.partnerId, routeParams(event).code ?? "");
        return panelPage(deps, session, { title: `Ödeme ${p.code}`, current: "/panel/payments", body: await detailBody(deps, session, p) });
      },
    },
    {
      method: "POST",
      path: "/panel/payments/:code/refunds",
      auth: "panel:staff",
      action: "refund",
      async handle(event, ctx) {
        const session = ctx.session;
        const form = ctx.form;
        const code = routeParams(event).code ?? "";
        const partner = await deps.store.q.partners.get(session.user.partnerId);
        if (!partner) fail("not_found");
        const amount = (form.amount ?? "").trim() === "" ? null : toKurus("amount", form.amount ?? "");
        const partnerRefundCode = (form.partnerRefundCode ?? "").trim();
        if (partnerRefundCode === "" || partnerRefundCode.length > PARTNER_REFUND_CODE_MAX_CHARS)
          fail("validation_error", `partnerRefundCode: 1 to ${PARTNER_REFUND_CODE_MAX_CHARS} characters`);
        await createRefund(deps, partner, code, "auto", { amount, partnerRefundCode });
        return seeOther(`/panel/payments/${encodeURIComponent(code)}`);
      },
    },
  ];
}
