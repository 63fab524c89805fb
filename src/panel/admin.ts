import type { Deps } from "../deps";
import { issueApiKey, revokeApiKey } from "../domain/partners/keys";
import { addUser, setUserStatus } from "../domain/users/service";
import type { PanelSession } from "../domain/users/sessions";
import { html, type SafeHtml } from "../html";
import { routeParams } from "../http/endpoint";
import type { PanelRoute } from "./route";
import { PANEL_PAGE_SIZE } from "../limits";
import { csrfField, panelPage, scroll, seeOther } from "./layout";
import { AUDIT_OUTCOMES, ROLES, USER_STATES, word } from "./words";
import { when } from "./format";

// docs/panel.md, admin pages: API keys (an issued key is shown once, on the answer to the POST, and
// never again), users, and the audit log. Each change goes through the same domain function as
// `kasa keys …` / `kasa users …`, scoped to the admin's partner.

async function keysBody(deps: Deps, session: PanelSession, fresh: SafeHtml | null): Promise<SafeHtml> {
  const keys = await deps.store.q.apiKeys.list(session.user.partnerId);
  const rows = keys.map(
    (k) =>
      html`<tr><td>${k.id}</td><td><code>${k.keyHint}</code></td><td>${when(k.createdAtMs)}</td><td>${
        k.revokedAtMs !== null
          ? html`İptal edildi (${when(k.revokedAtMs)})`
          : html`<form class="inline" method="post" action="/panel/keys/${encodeURIComponent(k.id)}/revoke">${csrfField(session)}<button type="submit" class="secondary">İptal et: ${k.id}</button></form>`
      }</td></tr>`,
  );
  return html`${fresh}
<form method="post" action="/panel/keys">${csrfField(session)}<div class="actions"><button type="submit">Yeni API anahtarı oluştur</button></div></form>
${scroll("API anahtarları", html`<table><thead><tr><th scope="col">Kimlik</th><th scope="col">İpucu</th><th scope="col">Oluşturma</th><th scope="col">Durum</th></tr></thead><tbody>${rows}</tbody></table>`)}`;
}

async function usersBody(deps: Deps, session: PanelSession): Promise<SafeHtml> {
  const users = await deps.store.q.panelUsers.list(session.user.partnerId);
  const rows = users.map((u) => {
    const next = u.status === "active" ? "disable" : "enable";
    const toggle =
      u.id === session.user.id
        ? html`(siz)`
        : html`<form class="inline" method="post" action="/panel/users/${encodeURIComponent(u.id)}/${next}">${csrfField(session)}<button type="submit" class="secondary">${next === "disable" ? "Devre dışı bırak" : "Etkinleştir"}: ${u.email}</button></form>`;
    return html`<tr><td>${u.email}</td><td>${word(ROLES, u.role)}</td><td>${word(USER_STATES, u.status)}</td><td>${toggle}</td></tr>`;
  });
  return html`${scroll("Kullanıcılar", html`<table><thead><tr><th scope="col">E-posta</th><th scope="col">Rol</th><th scope="col">Durum</th><th scope="col">İşlem</th></tr></thead><tbody>${rows}</tbody></table>`)}
<h2>Kullanıcı ekle</h2>
<form method="post" action="/panel/users">${csrfField(session)}
<div class="field"><label for="new-email">E-posta</label><input id="new-email" name="email" type="email" required></div>
<div class="field"><label for="new-role">Rol</label><select id="new-role" name="role"><option value="viewer">İzleyici (okur)</option><option value="staff">Personel (iade, bağlantı, ödeme)</option><option value="admin">Yönetici (her şey)</option></select></div>
<div class="actions"><button type="submit">Ekle</button></div>
</form>`;
}

async function auditBody(deps: Deps, session: PanelSession, before: string | null): Promise<SafeHtml> {
  const beforeSeq = before !== null && /^\d{1,15}$/.test(before) ? Number(before) : null;
  const rows = await deps.store.q.panelAudit.page(session.user.partnerId, beforeSeq, PANEL_PAGE_SIZE + 1);
  const shown = rows.slice(0, PANEL_PAGE_SIZE);
  const lines = shown.map(
    (a) =>
      html`<tr><td>${when(a.atMs)}</td><td>${a.email}</td><td><code>${a.action}</code></td><td>${a.target ?? "—"}</td><td>${a.outcome === "ok" ? word(AUDIT_OUTCOMES, a.outcome) : html`<code>${a.outcome}</code>`}</td><td>${a.ip}</td></tr>`,
  );
  const last = shown.at(-1);
  return html`${scroll("Denetim kaydı", html`<table><thead><tr><th scope="col">Zaman</th><th scope="col">Kullanıcı</th><th scope="col">İşlem</th><th scope="col">Hedef</th><th scope="col">Sonuç</th><th scope="col">IP</th></tr></thead><tbody>${lines}</tbody></table>`)}
${rows.length > PANEL_PAGE_SIZE && last && html`<p><a href="/panel/audit?before=${last.seq}">Daha eski kayıtlar</a></p>`}`;
}

export function adminPages(deps: Deps): PanelRoute[] {
  return [
    {
      method: "GET",
      path: "/panel/keys",
      auth: "panel:admin",
      handle: async (_e, ctx) =>
        panelPage(deps, ctx.session, { title: "API anahtarları", current: "/panel/keys", body: await keysBody(deps, ctx.session, null) }),
    },
    {
      method: "POST",
      path: "/panel/keys",
      auth: "panel:admin",
      action: "key.issue",
      async handle(_e, ctx) {
        const session = ctx.session;
        const { row, key } = await issueApiKey(deps, session.user.partnerId);
        const fresh = html`<div class="notice" role="status"><p>Yeni anahtar <code>${row.id}</code>. Yalnızca şimdi gösterilir; hemen saklayın:</p><code class="secret" id="new-key">${key.reveal()}</code></div>`;
        return panelPage(deps, session, {
          title: "API anahtarları",
          current: "/panel/keys",
          body: await keysBody(deps, session, fresh),
          status: 201,
        });
      },
    },
    {
      method: "POST",
      path: "/panel/keys/:id/revoke",
      auth: "panel:admin",
      action: "key.revoke",
      async handle(event, ctx) {
        await revokeApiKey(deps, ctx.session.user.partnerId, routeParams(event).id ?? "");
        return seeOther("/panel/keys");
      },
    },
    {
      method: "GET",
      path: "/panel/users",
      auth: "panel:admin",
      handle: async (_e, ctx) =>
        panelPage(deps, ctx.session, { title: "Kullanıcılar", current: "/panel/users", body: await usersBody(deps, ctx.session) }),
    },
    {
      method: "POST",
      path: "/panel/users",
      auth: "panel:admin",
      action: "user.add",
      async handle(_e, ctx) {
        const session = ctx.session;
        const r = await addUser(deps, { partnerId: session.user.partnerId, email: ctx.form.email ?? "", role: ctx.form.role ?? "" });
        const fresh = html`<div class="notice" role="status"><p>${r.user.email} eklendi. Tek kullanımlık parola (yalnızca şimdi gösterilir):</p><code class="secret">${r.password.reveal()}</code></div>`;
        return panelPage(deps, session, {
          title: "Kullanıcılar",
          current: "/panel/users",
          body: html`${fresh}${await usersBody(deps, session)}`,
          status: 201,
        });
      },
    },
    ...(["enable", "disable"] as const).map(
      (verb): PanelRoute => ({
        method: "POST",
        path: `/panel/users/:id/${verb}`,
        auth: "panel:admin",
        action: `user.${verb}`,
        async handle(event, ctx) {
          await setUserStatus(deps, ctx.session.user.partnerId, routeParams(event).id ?? "", verb === "enable" ? "active" : "disabled");
          return seeOther("/panel/users");
        },
      }),
    ),
    {
      method: "GET",
      path: "/panel/audit",
      auth: "panel:admin",
      handle: async (event, ctx) =>
        panelPage(deps, ctx.session, {
          title: "Denetim kaydı",
          current: "/panel/audit",
          body: await auditBody(deps, ctx.session, event.url.searchParams.get("before")),
        }),
    },
  ];
}
