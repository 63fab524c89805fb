import type { Deps } from "../deps";
import type { PanelSession } from "../domain/users/sessions";
import { roleAllows } from "../domain/users/service";
import { html, renderPage, type SafeHtml } from "../html";
import type { PanelRole } from "../store/rows";
import { ROLES, word } from "./words";

// The panel's page shell (docs/panel.md): the shared strict-CSP page of html.ts, wider, with a
// navigation of the pages the user's role may open, and the logout form. No script at all: every
// action is a form post, so the panel works without JavaScript and by keyboard alone.

const PANEL_CSS = [
  "main{max-width:64rem}",
  "nav ul{list-style:none;display:flex;flex-wrap:wrap;gap:.25rem 1rem;padding:0;margin:0 0 1rem}",
  "nav a{display:inline-block;padding:.5rem 0;min-height:44px;color:var(--accent)}",
  "nav a[aria-current=page]{font-weight:700}",
  ".bar{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem;",
  "border-bottom:1px solid var(--line);margin-bottom:1rem}",
  "table{width:100%;border-collapse:collapse;margin:0 0 1rem;font-variant-numeric:tabular-nums}",
  "th,td{text-align:left;padding:.5rem;border-bottom:1px solid var(--line);vertical-align:top}",
  "th{color:var(--muted);font-weight:600}",
  "a{color:var(--accent)}",
  "select,textarea{font:inherit;padding:.5rem;min-height:44px;border:1px solid var(--muted);",
  "border-radius:8px;background:var(--card);color:var(--fg)}",
  "form.inline{display:inline}",
  ".filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;margin-bottom:1rem}",
  ".filters>div{flex:1 1 10rem}",
  ".field{margin-bottom:1rem}",
  ".notice{border:1px solid var(--accent);border-radius:8px;padding:.75rem;margin-bottom:1rem}",
  ".problem{border:2px solid var(--danger);border-radius:8px;padding:.75rem;margin-bottom:1rem}",
  "code.secret{display:block;overflow-wrap:anywhere;padding:.5rem;border:1px dashed var(--line)}",
  // A phone (docs/panel.md, On a phone): nothing scrolls the page sideways; a wide table scrolls
  // inside its own region, and every link, button and field is a 44 px target.
  "body{padding:1rem .5rem}main{padding:1rem;min-width:0}h1,dd,.bar p{overflow-wrap:anywhere}",
  "main a{display:inline-block;min-height:44px;min-width:44px;padding:.625rem 0}",
  ".scroll{overflow-x:auto;max-width:100%;margin:0 0 1rem}.scroll table{margin:0}",
  "pre{overflow-x:auto;max-width:100%}",
  "input[readonly]{min-width:12rem}",
  "summary{min-height:44px;display:flex;align-items:center;cursor:pointer;color:var(--accent)}",
  "details.days{margin:0 0 1.5rem}",
  ".stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(13rem,1fr));gap:.75rem;margin:0 0 1rem}",
  ".stat{border:1px solid var(--line);border-radius:8px;padding:.75rem}.stat h3{margin:0 0 .5rem;font-size:1rem}",
  ".stat dl{margin:0}.big{font-size:1.25rem}",
  "svg.chart{display:block;width:100%;max-width:40rem;height:auto;margin:0 0 .5rem}",
  ".chart .bar{fill:var(--accent)}.chart .axis{stroke:var(--line)}.chart text{fill:var(--muted);font-size:20px}",
  "@media (min-width:48rem){body{padding:2rem 1rem}main{padding:1.5rem}}",
  // On a phone the payments list is a card per payment, each value beside its column's name.
  "@media (max-width:40rem){table.cards,table.cards tbody,table.cards tr{display:block;width:100%}",
  "table.cards thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}",
  "table.cards tr{border:1px solid var(--line);border-radius:8px;padding:.25rem .75rem;margin:0 0 .75rem}",
  "table.cards td{display:flex;justify-content:space-between;align-items:center;gap:1rem;border:0;padding:.125rem 0;",
  "text-align:right;overflow-wrap:anywhere}",
  "table.cards td::before{content:attr(data-label);color:var(--muted);font-weight:600;text-align:left}",
  "table.cards caption{display:block;text-align:left}}",
].join("");

type NavItem = { href: string; label: string; role: PanelRole };

const NAV: readonly NavItem[] = [
  { href: "/panel/", label: "Özet", role: "viewer" },
  { href: "/panel/payments", label: "Ödemeler", role: "viewer" },
  { href: "/panel/new-payment", label: "Yeni ödeme", role: "staff" },
  { href: "/panel/links", label: "Bağlantılar", role: "viewer" },
  { href: "/panel/payouts", label: "Aktarımlar", role: "viewer" },
  { href: "/panel/webhooks", label: "Webhook'lar", role: "viewer" },
  { href: "/panel/acceptance", label: "Ödeme kabulü", role: "viewer" },
  { href: "/panel/keys", label: "API anahtarları", role: "admin" },
  { href: "/panel/users", label: "Kullanıcılar", role: "admin" },
  { href: "/panel/audit", label: "Denetim kaydı", role: "admin" },
];

/** A table in its own scroll region, so a narrow screen scrolls the table, never the page. */
export const scroll = (label: string, table: SafeHtml): SafeHtml =>
  html`<div class="scroll" role="region" aria-label="${label}" tabindex="0">${table}</div>`;

export const csrfField = (session: PanelSession): SafeHtml => html`<input type="hidden" name="csrf" value="${session.csrfToken}">`;

export type PanelPageInput = { title: string; current: string; body: SafeHtml; status?: number };

export function panelPage(deps: Deps, session: PanelSession, input: PanelPageInput): Response {
  const items = NAV.filter((n) => roleAllows(session.user.role, n.role)).map(
    (n) => html`<li><a href="${n.href}"${n.href === input.current ? html` aria-current="page"` : ""}>${n.label}</a></li>`,
  );
  const body = html`<div class="bar">
<p class="muted">${session.user.email} · ${word(ROLES, session.user.role)}</p>
<form class="inline" method="post" action="/panel/logout">${csrfField(session)}<button type="submit" class="secondary">Çıkış yap</button></form>
</div>
<nav aria-label="Panel menüsü"><ul>${items}</ul></nav>
<h1>${input.title}</h1>
${input.body}`;
  return toResponse(deps, input.title, body, input.status ?? 200);
}

/** A page outside a session (login), in the same shell. */
export function toResponse(deps: Deps, title: string, body: SafeHtml, status: number): Response {
  const page = renderPage({
    title: `${title} · kasa panel`,
    body,
    nonce: deps.ids.nonce(),
    formActions: ["'self'"],
    status,
    extraCss: PANEL_CSS,
    referrerPolicy: "same-origin",
  });
  return new Response(page.body, { status: page.status, headers: page.headers });
}

export const seeOther = (location: string, headers: Record<string, string> = {}): Response =>
  new Response(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store", ...headers } });
