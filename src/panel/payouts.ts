import type { Deps } from "../deps";
import { fail } from "../errors";
import { html } from "../html";
import { routeParams } from "../http/endpoint";
import type { PanelRoute } from "./route";
import { LIST_SIZE_MAX } from "../limits";
import { panelPage, scroll } from "./layout";
import { dateTr, money, when } from "./format";
import { PAYOUT_STATES, word } from "./words";

// docs/panel.md; docs/contract.md, Refunds: payout batches, latest first, and one batch with the captures it pays
// and the credit refunds it nets off. The same reads `kasa payouts` uses, scoped to the partner.

export function payoutPages(deps: Deps): PanelRoute[] {
  return [
    {
      method: "GET",
      path: "/panel/payouts",
      auth: "panel:viewer",
      async handle(_e, ctx) {
        const batches = await deps.store.q.operator.payoutBatches({
          partnerId: ctx.session.user.partnerId,
          status: null,
          limit: LIST_SIZE_MAX,
        });
        const rows = batches.map(
          (b) =>
            html`<tr><td><a href="/panel/payouts/${encodeURIComponent(b.id)}">${b.id}</a></td><td>${dateTr(b.day)}</td><td>${money(b.amount)}</td><td>${word(PAYOUT_STATES, b.status)}</td></tr>`,
        );
        const body =
          rows.length === 0
            ? html`<p>Henüz ödeme aktarımı yok.</p>`
            : scroll(
                "Ödeme aktarımları",
                html`<table><thead><tr><th scope="col">Aktarım</th><th scope="col">Valör günü</th><th scope="col">Net tutar</th><th scope="col">Durum</th></tr></thead><tbody>${rows}</tbody></table>`,
              );
        return panelPage(deps, ctx.session, { title: "Ödeme aktarımları", current: "/panel/payouts", body });
      },
    },
    {
      method: "GET",
      path: "/panel/payouts/:id",
      auth: "panel:viewer",
      async handle(event, ctx) {
        const batch = await deps.store.q.operator.payoutBatch(routeParams(event).id ?? "");
        if (!batch || batch.partnerId !== ctx.session.user.partnerId) fail("not_found", "payout batch not found");
        const payments = (await deps.store.q.operator.paymentsOfBatch(batch.id)).map(
          (p) =>
            html`<tr><td><a href="/panel/payments/${encodeURIComponent(p.code)}">${p.code}</a></td><td>${money(p.amount)}</td><td>${money(p.commissionAmount)}</td><td>${money(p.netToPartner)}</td><td>${dateTr(p.expectedValueDate)}</td></tr>`,
        );
        const refunds = (await deps.store.q.operator.refundsOfBatch(batch.id)).map(
          (r) => html`<tr><td>${r.id}</td><td>${r.paymentCode}</td><td>-${money(r.amount)}</td><td>${when(r.updatedAtMs)}</td></tr>`,
        );
        const body = html`<dl><dt>Valör günü</dt><dd>${dateTr(batch.day)}</dd><dt>Net tutar</dt><dd>${money(batch.amount)}</dd><dt>Durum</dt><dd>${word(PAYOUT_STATES, batch.status)}</dd></dl>
<h2>Tahsilatlar</h2>
${scroll("Tahsilatlar", html`<table><thead><tr><th scope="col">Ödeme</th><th scope="col">Tutar</th><th scope="col">Komisyon</th><th scope="col">Net</th><th scope="col">Valör</th></tr></thead><tbody>${payments}</tbody></table>`)}
<h2>Düşülen iadeler</h2>
${refunds.length === 0 ? html`<p>İade yok.</p>` : scroll("Düşülen iadeler", html`<table><thead><tr><th scope="col">İade</th><th scope="col">Ödeme</th><th scope="col">Tutar</th><th scope="col">Tarih</th></tr></thead><tbody>${refunds}</tbody></table>`)}`;
        return panelPage(deps, ctx.session, { title: `Aktarım ${batch.id}`, current: "/panel/payouts", body });
      },
    },
  ];
}
