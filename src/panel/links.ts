import type { Deps } from "../deps";
import { parseLinkListQuery } from "../domain/payment-links/list-query";
import { createLinkBody } from "../domain/payment-links/schema";
import { cancelLink, createLink, listLinks } from "../domain/payment-links/service";
import { toLinkUrl } from "../domain/payment-links/view";
import type { PanelSession } from "../domain/users/sessions";
import { roleAllows } from "../domain/users/service";
import { fail } from "../errors";
import { html, type SafeHtml } from "../html";
import { routeParams } from "../http/endpoint";
import type { PanelRoute } from "./route";
import { checkedText, parseWith } from "../http/read";
import { csrfField, panelPage, scroll, seeOther } from "./layout";
import { LINK_STATES, word } from "./words";
import { money, toKurus, when } from "./format";
import type { LinkRow, PartnerRow } from "../store/rows";

// docs/panel.md: payment links. The list is docs/contract.md#list-links's (first page, newest first); a new link
// is the same body as POST /v1/payment-links, built from the form and checked by the same schema
// and service, so an item sum that misses the amount is the API's 422 with its code.

const ITEM_ROWS = 3;

const partnerOf = async (deps: Deps, session: PanelSession): Promise<PartnerRow> =>
  (await deps.store.q.partners.get(session.user.partnerId)) ?? fail("not_found");

function toCreateBody(form: Record<string, string>): unknown {
  const items = [];
  for (let i = 1; i <= ITEM_ROWS; i++) {
    const name = (form[`item${i}Name`] ?? "").trim();
    const amount = (form[`item${i}Amount`] ?? "").trim();
    if (name === "" && amount === "") continue;
    items.push({ name, amount: toKurus(`items[${i - 1}].amount`, amount) });
  }
  const counts = (form.allowedInstallmentCounts ?? "").split(/[\s,]+/).filter((s) => s !== "");
  if (counts.some((c) => !/^\d{1,2}$/.test(c))) fail("validation_error", "allowedInstallmentCounts: whole numbers separated by commas");
  const optional = (name: string) => ((form[name] ?? "").trim() === "" ? null : (form[name] ?? "").trim());
  return {
    amount: toKurus("amount", form.amount ?? ""),
    terminalId: (form.terminalId ?? "").trim(),
    description: optional("description"),
    payerName: optional("payerName"),
    allowedInstallmentCounts: counts.length === 0 ? null : counts.map(Number),
    items: items.length === 0 ? null : items,
  };
}

function linkRow(deps: Deps, session: PanelSession, l: LinkRow): SafeHtml {
  const url = toLinkUrl(deps.config.baseUrl, l.token);
  const cancellable = ["pending", "launched", "initiated", "failed"].includes(l.status) && roleAllows(session.user.role, "staff");
  return html`<tr><td>${l.id}</td><td>${word(LINK_STATES, l.status)}</td><td>${money(l.amount)}</td><td>${l.description ?? "—"}</td><td>${when(l.expiresAtMs)}</td>
<td><label for="url-${l.id}">Bağlantı adresi (kopyalamak için seçin)</label><input id="url-${l.id}" readonly value="${url}"></td>
<td>${cancellable ? html`<form class="inline" method="post" action="/panel/links/${encodeURIComponent(l.id)}/cancel">${csrfField(session)}<button type="submit" class="secondary">İptal et: ${l.id}</button></form>` : "—"}</td></tr>`;
}

async function createForm(deps: Deps, session: PanelSession): Promise<SafeHtml> {
  const terminals = (await deps.store.q.catalog.terminals(session.user.partnerId)).filter((t) => t.active);
  const items = Array.from(
    { length: ITEM_ROWS },
    (
      _,
      i,
    ) => html`<div class="filters"><div><label for="item${i + 1}Name">Kalem ${i + 1} adı</label><input id="item${i + 1}Name" name="item${i + 1}Name"></div>
<div><label for="item${i + 1}Amount">Kalem ${i + 1} tutarı (TL)</label><input id="item${i + 1}Amount" name="item${i + 1}Amount" inputmode="decimal"></div></div>`,
  );
  const terminalField = html`<select id="terminalId" name="terminalId">${terminals.map((t) => html`<option value="${t.id}">${t.id}</option>`)}</select>`;
  return html`<h2>Yeni bağlantı</h2>
<form method="post" action="/panel/links">${csrfField(session)}
<div class="field"><label for="amount">Tutar (TL)</label><input id="amount" name="amount" inputmode="decimal" required></div>
<div class="field"><label for="terminalId">Terminal</label>${terminalField}</div>
<div class="field"><label for="description">Açıklama</label><input id="description" name="description"></div>
<div class="field"><label for="payerName">Ödeyen adı</label><input id="payerName" name="payerName"></div>
<div class="field"><label for="allowedInstallmentCounts">İzin verilen taksitler (ör. 1, 3, 6; boş: hepsi)</label><input id="allowedInstallmentCounts" name="allowedInstallmentCounts"></div>
${items}
<div class="actions"><button type="submit">Bağlantı oluştur</button></div>
</form>`;
}

export function linkPages(deps: Deps): PanelRoute[] {
  const render = async (session: PanelSession, status = 200, notice: SafeHtml | null = null) => {
    const page = await listLinks(deps, await partnerOf(deps, session), parseLinkListQuery(new URLSearchParams()));
    const rows = page.links.map((l) => linkRow(deps, session, l));
    const table =
      rows.length === 0
        ? html`<p>Bağlantı yok.</p>`
        : scroll(
            "Ödeme bağlantıları",
            html`<table><thead><tr><th scope="col">Kimlik</th><th scope="col">Durum</th><th scope="col">Tutar</th><th scope="col">Açıklama</th><th scope="col">Son geçerlilik</th><th scope="col">Adres</th><th scope="col">İşlem</th></tr></thead><tbody>${rows}</tbody></table>`,
          );
    const body = html`${notice}${table}${roleAllows(session.user.role, "staff") && (await createForm(deps, session))}`;
    return panelPage(deps, session, { title: "Ödeme bağlantıları", current: "/panel/links", body, status });
  };
  return [
    { method: "GET", path: "/panel/links", auth: "panel:viewer", handle: (_e, ctx) => render(ctx.session) },
    {
      method: "POST",
      path: "/panel/links",
      auth: "panel:staff",
      action: "link.create",
      async handle(_e, ctx) {
        const session = ctx.session;
        const input = parseWith(createLinkBody, checkedText(toCreateBody(ctx.form)));
        const link = await createLink(deps, await partnerOf(deps, session), input);
        const url = toLinkUrl(deps.config.baseUrl, link.token);
        return render(
          session,
          201,
          html`<div class="notice" role="status"><p>Bağlantı <code>${link.id}</code> oluşturuldu:</p><code class="secret" id="new-link-url">${url}</code></div>`,
        );
      },
    },
    {
      method: "POST",
      path: "/panel/links/:id/cancel",
      auth: "panel:staff",
      action: "link.cancel",
      async handle(event, ctx) {
        await cancelLink(deps, await partnerOf(deps, ctx.session), routeParams(event).id ?? "");
        return seeOther("/panel/links");
      },
    },
  ];
}
