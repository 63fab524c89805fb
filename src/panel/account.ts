import type { Deps } from "../deps";
import { acceptConsentAgreement } from "../domain/acceptance/accept";
import { acceptanceOf } from "../domain/acceptance/service";
import { roleAllows } from "../domain/users/service";
import type { PanelSession } from "../domain/users/sessions";
import { fail } from "../errors";
import { html, type SafeHtml } from "../html";
import { routeParams } from "../http/endpoint";
import type { PanelRoute } from "./route";
import { csrfField, panelPage, scroll, seeOther } from "./layout";
import { when } from "./format";
import { dashboardBody, dashboardFacts } from "./dashboard";
import { REQUIREMENTS, word } from "./words";
import type { PartnerRow } from "../store/rows";

// docs/panel.md: the overview (today's captures, acceptance status) and the acceptance page (holds,
// agreements; an admin accepts a `consent` agreement, which lifts its hold).

const partnerOf = async (deps: Deps, session: PanelSession): Promise<PartnerRow> =>
  (await deps.store.q.partners.get(session.user.partnerId)) ?? fail("not_found");

const HOLD_WORDS: Record<string, string> = { admin_hold: "Yönetici blokajı", agreements_pending: "Onay bekleyen sözleşme" };

async function acceptanceSummary(deps: Deps, partner: PartnerRow): Promise<SafeHtml> {
  const a = await acceptanceOf(deps.store.q, partner, deps.clock.nowMs());
  const holds = a.holds.map(
    (h) =>
      html`<li>${HOLD_WORDS[h.reason] ?? h.reason}: ${h.effective ? "yürürlükte" : `${when(h.effectiveAtMs)} tarihinden itibaren`}</li>`,
  );
  return html`<p id="accepting">${a.acceptingPayments ? "Hesap ödeme kabul ediyor." : "Hesap şu anda ödeme kabul etmiyor."}</p>
${holds.length > 0 ? html`<ul id="holds">${holds}</ul>` : html`<p id="holds">Blokaj yok.</p>`}`;
}

async function agreementsBody(deps: Deps, session: PanelSession, partner: PartnerRow): Promise<SafeHtml> {
  const all = await deps.store.q.acceptance.agreements(partner.id);
  if (all.length === 0) return html`<p>Sözleşme yok.</p>`;
  const admin = roleAllows(session.user.role, "admin");
  const rows = all.map((g) => {
    const path = `/panel/agreements/${encodeURIComponent(g.agreementCode)}/${encodeURIComponent(g.version)}/accept`;
    const action =
      g.acceptedAtMs !== null
        ? html`Onaylandı (${when(g.acceptedAtMs)})`
        : g.requirement === "consent" && admin
          ? html`<form class="inline" method="post" action="${path}">${csrfField(session)}<button type="submit">Onayla: ${g.agreementName}</button></form>`
          : html`Bekliyor`;
    return html`<tr><td>${g.agreementName}</td><td><code>${g.agreementCode}</code> sürüm ${g.version}</td><td>${word(REQUIREMENTS, g.requirement)}</td><td>${when(g.deadlineAtMs)}</td><td>${action}</td></tr>`;
  });
  return scroll(
    "Sözleşmeler",
    html`<table><thead><tr><th scope="col">Sözleşme</th><th scope="col">Kod</th><th scope="col">Onay şekli</th><th scope="col">Son gün</th><th scope="col">Durum</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

export function accountPages(deps: Deps): PanelRoute[] {
  return [
    {
      method: "GET",
      path: "/panel/",
      auth: "panel:viewer",
      async handle(_event, ctx) {
        const session = ctx.session;
        const partner = await partnerOf(deps, session);
        const facts = await dashboardFacts(deps, partner.id);
        const body = html`${dashboardBody(facts)}<h2>Ödeme kabulü</h2>${await acceptanceSummary(deps, partner)}`;
        return panelPage(deps, session, { title: partner.name, current: "/panel/", body });
      },
    },
    {
      method: "GET",
      path: "/panel/acceptance",
      auth: "panel:viewer",
      async handle(_event, ctx) {
        const session = ctx.session;
        const partner = await partnerOf(deps, session);
        const body = html`${await acceptanceSummary(deps, partner)}<h2>Sözleşmeler</h2>${await agreementsBody(deps, session, partner)}`;
        return panelPage(deps, session, { title: "Ödeme kabulü", current: "/panel/acceptance", body });
      },
    },
    {
      method: "POST",
      path: "/panel/agreements/:code/:version/accept",
      auth: "panel:admin",
      action: "agreement.accept",
      async handle(event, ctx) {
        const p = routeParams(event);
        await acceptConsentAgreement(deps, ctx.session.user.partnerId, p.code ?? "", p.version ?? "");
        return seeOther("/panel/acceptance");
      },
    },
  ];
}
