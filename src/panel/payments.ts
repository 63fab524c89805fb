import type { Deps } from "../deps";
import { addDays, istanbulDate, istanbulDateStartMs } from "../domain/checks/istanbul-time";
import { paymentByCode } from "../domain/payments/service";
import { createRefund } from "../domain/refunds/service";
import type { PanelSession } from "../domain/users/sessions";
import { roleAllows } from "../domain/users/service";
import { fail } from "../errors";
import { html, type SafeHtml } from "../html";
import { routeParams } from "../http/endpoint";
import type { PanelRoute } from "./route";
import { PANEL_PAGE_SIZE, PARTNER_REFUND_CODE_MAX_CHARS } from "../limits";
import { csrfField, panelPage, seeOther } from "./layout";
import { money, toKurus, when } from "./format";
import type { PaymentRow, PaymentStatus, PaymentSummaryRow } from "../store/rows-money";

// docs/panel.md: payments (filter by status and dates, search by paymentCode or partnerTxCode,
// keyset-paged) and one payment with its refunds and the refund form. Every read is scoped to the
// user's partner: another partner's paymentCode is payment_not_found, as on the API.

const STATUSES: readonly PaymentStatus[] = ["initiated", "captured", "failed", "expired", "voided", "refunded"];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Filters = { status: string; from: string; to: string; q: string };

function readFilters(query: URLSearchParams): Filters {
  const pick = (name: string) => (query.get(name) ?? "").trim().slice(0, 100);
  const f = { status: pick("status"), from: pick("from"), to: pick("to"), q: pick("q") };
  if (f.status !== "" && !(STATUSES as readonly string[]).includes(f.status)) fail("validation_error", "status: not a payment status");
  for (const name of ["from", "to"] as const)
    if (f[name] !== "" && !DATE.test(f[name])) fail("validation_error", `${name}: a date as YYYY-MM-DD`);
  return f;
}

async function listPayments(deps: Deps, partnerId: string, f: Filters, cursor: string | null): Promise<PaymentSummaryRow[]> {
  const [atText, code] = (cursor ?? "").split("~");
  const before = cursor !== null && /^\d{1,15}$/.test(atText ?? "") && code ? { atMs: Number(atText), code } : null;
  return await deps.store.q.panel.payments({
    partnerId,
    status: f.status || null,
    fromMs: f.from ? istanbulDateStartMs(f.from) : null,
    toMs: f.to ? istanbulDateStartMs(addDays(f.to, 1)) : null,
    search: f.q || null,
    before,
    limit: PANEL_PAGE_SIZE + 1,
  });
}

function filterForm(f: Filters): SafeHtml {
  const options = ["", ...STATUSES].map(
    (s) => html`<option value="${s}"${s === f.status ? html` selected` : ""}>${s === "" ? "Tümü" : s}</option>`,
  );
  return html`<form class="filters" method="get" action="/panel/payments">
<div><label for="status">Durum</label><select id="status" name="status">${options}</select></div>
<div><label for="from">Başlangıç (YYYY-AA-GG)</label><input id="from" name="from" value="${f.from}" inputmode="numeric"></div>
<div><label for="to">Bitiş (YYYY-AA-GG)</label><input id="to" name="to" value="${f.to}" inputmode="numeric"></div>
<div><label for="q">paymentCode ya da partnerTxCode</label><input id="q" name="q" value="${f.q}"></div>
<div><button type="submit">Filtrele</button></div>
</form>`;
}

function paymentsTable(rows: readonly PaymentSummaryRow[]): SafeHtml {
  if (rows.length === 0) return html`<p>Bu filtreyle ödeme yok.</p>`;
  const lines = rows.map(
    (p) =>
      html`<tr><td><a href="/panel/payments/${encodeURIComponent(p.code)}">${p.code}</a></td><td>${p.partnerTxCode}</td><td>${p.status}</td><td>${money(p.amount)}</td><td>${p.installment}</td><td>${p.channel}</td><td>${when(p.createdAtMs)}</td></tr>`,
  );
  return html`<table><caption class="muted">En yeni önce</caption><thead><tr><th scope="col">paymentCode</th><th scope="col">partnerTxCode</th><th scope="col">Durum</th><th scope="col">Tutar</th><th scope="col">Taksit</th><th scope="col">Kanal</th><th scope="col">Oluşturma</th></tr></thead><tbody>${lines}</tbody></table>`;
}

async function detailBody(deps: Deps, session: PanelSession, p: PaymentRow): Promise<SafeHtml> {
  const refunds = await deps.store.q.operator.refundsOfPayment(p.code);
  const facts = html`<dl>
<dt>partnerTxCode</dt><dd>${p.partnerTxCode}</dd><dt>Durum</dt><dd>${p.status}</dd><dt>Tutar</dt><dd>${money(p.amount)}</dd>
<dt>Taksit</dt><dd>${p.installment}</dd><dt>Terminal</dt><dd>${p.terminalId}</dd><dt>Kanal</dt><dd>${p.channel}</dd>
<dt>Kart</dt><dd>${p.maskedPan ?? "—"}</dd><dt>Komisyon</dt><dd>${money(p.commissionAmount)}</dd>
<dt>Size geçecek</dt><dd>${money(p.netToPartner)}</dd><dt>Valör</dt><dd>${p.expectedValueDate ?? "—"}</dd>
<dt>İade edilen</dt><dd>${money(p.refundedAmount)}</dd><dt>Oluşturma</dt><dd>${when(p.createdAtMs)}</dd><dt>Tahsilat</dt><dd>${when(p.capturedAtMs)}</dd>
</dl>`;
  const refundRows = refunds.map(
    (r) =>
      html`<tr><td>${r.id}</td><td>${r.method}</td><td>${r.status}</td><td>${money(r.amount)}</td><td>${when(r.createdAtMs)}</td></tr>`,
  );
  const refundTable =
    refunds.length === 0
      ? html`<p>İade yok.</p>`
      : html`<table><thead><tr><th scope="col">İade</th><th scope="col">Yöntem</th><th scope="col">Durum</th><th scope="col">Tutar</th><th scope="col">Tarih</th></tr></thead><tbody>${refundRows}</tbody></table>`;
  const form =
    roleAllows(session.user.role, "staff") &&
    html`<h2>İade et</h2>
<form method="post" action="/panel/payments/${encodeURIComponent(p.code)}/refunds">${csrfField(session)}
<input type="hidden" name="partnerRefundCode" value="${`panel-${deps.ids.refundId()}`}">
<div class="field"><label for="amount">Tutar (TL; boş bırakılırsa kalanın tamamı)</label><input id="amount" name="amount" inputmode="decimal"></div>
<div class="actions"><button type="submit">İade et</button></div>
</form>`;
  const rows = await deps.store.q.attempts.byPayment(p.code);
  const attempts: SafeHtml[] = [];
  for (const a of rows) {
    // The bank that took the attempt (a router's member, docs/routing.md) and the rule that chose it.
    const member = a.terminalId === null ? undefined : await deps.store.q.catalog.terminal(a.terminalId);
    const bank = member?.bank ?? a.connectionId ?? "—";
    const rule = a.route === null ? "—" : a.route.rule;
    attempts.push(
      html`<tr><td>${a.id}</td><td>${a.status}</td><td>${bank}</td><td>${rule}</td><td>${a.counted ? "evet" : "hayır"}</td><td>${when(a.createdAtMs)}</td></tr>`,
    );
  }
  const attemptTable =
    attempts.length === 0
      ? html`<p>Kart denemesi yok.</p>`
      : html`<table><thead><tr><th scope="col">Deneme</th><th scope="col">Durum</th><th scope="col">Banka</th><th scope="col">Yönlendirme kuralı</th><th scope="col">Hakkı kullandı</th><th scope="col">Zaman</th></tr></thead><tbody>${attempts}</tbody></table>`;
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
        const rows = await listPayments(deps, session.user.partnerId, f, event.url.searchParams.get("before"));
        const shown = rows.slice(0, PANEL_PAGE_SIZE);
        const last = shown.at(-1);
        const next =
          rows.length > PANEL_PAGE_SIZE && last ? new URLSearchParams({ ...f, before: `${last.createdAtMs}~${last.code}` }) : null;
        const today = istanbulDate(deps.clock.nowMs());
        const body = html`<p><a href="/panel/payments?from=${today}&amp;to=${today}">Bugünün ödemeleri</a></p>${filterForm(f)}${paymentsTable(shown)}${next && html`<p><a href="/panel/payments?${next.toString()}">Daha eski ödemeler</a></p>`}`;
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
