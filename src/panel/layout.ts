import type { Deps } from "../deps";
import type { PanelSession } from "../domain/users/sessions";
import { roleAllows } from "../domain/users/service";
import { html, renderPage, type SafeHtml } from "../html";
import type { PanelRole } from "../store/rows";

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

export const csrfField = (session: PanelSession): SafeHtml => html`<input type="hidden" name="csrf" value="${session.csrfToken}">`;

export type PanelPageInput = { title: string; current: string; body: SafeHtml; status?: number };

export function panelPage(deps: Deps, session: PanelSession, input: PanelPageInput): Response {
  const items = NAV.filter((n) => roleAllows(session.user.role, n.role)).map(
    (n) => html`<li><a href="${n.href}"${n.href === input.current ? html` aria-current="page"` : ""}>${n.label}</a></li>`,
  );
  const body = html`<div class="bar">
<p class="muted">${session.user.email} · ${session.user.role}</p>
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
