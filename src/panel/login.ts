import type { Deps } from "../deps";
import { login, logout, resumeSession } from "../domain/users/sessions";
import { isApiError } from "../errors";
import { html } from "../html";
import type { PageRoute } from "../http/page";
import { PAGE_MESSAGES } from "../http/page-messages";
import { PANEL_LOGIN_PATH, readSessionCookie, refuseForeignOrigin, sessionCookie } from "../http/page-auth";
import { readFormBody } from "../http/read";
import { Sensitive } from "../sensitive";
import { seeOther, toResponse } from "./layout";

// docs/panel.md: the login form (fields `email` and `password`), its per-IP budget, and logout.

function loginPage(
  deps: Deps,
  problem: { code: string; message: string } | null,
  status: number,
  email = "",
  headers: Record<string, string> = {},
): Response {
  const body = html`<h1>kasa panel girişi</h1>
${problem && html`<div class="problem" role="alert"><p>${problem.message}</p><p class="muted">Hata kodu: <code>${problem.code}</code></p></div>`}
<form method="post" action="${PANEL_LOGIN_PATH}">
<div class="field"><label for="email">E-posta</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}"></div>
<div class="field"><label for="password">Parola</label><input id="password" name="password" type="password" autocomplete="current-password" required></div>
<div class="actions"><button type="submit">Giriş yap</button></div>
</form>`;
  const res = toResponse(deps, "Giriş", body, status);
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
  return res;
}

export function loginPages(deps: Deps): PageRoute[] {
  return [
    {
      method: "GET",
      path: PANEL_LOGIN_PATH,
      async handle(event) {
        const id = readSessionCookie(event);
        if (id !== null && (await resumeSession(deps, id)) !== null) return seeOther("/panel/");
        return loginPage(deps, null, 200);
      },
    },
    {
      method: "POST",
      path: PANEL_LOGIN_PATH,
      budgets: ["panel.login.ip"],
      async handle(event, _traceId, ctx) {
        // Login has no session to bind a CSRF token to (login CSRF): only where the form came from.
        refuseForeignOrigin(deps, event.req.headers);
        const form = await readFormBody(event.req);
        const email = form.email ?? "";
        try {
          const { sessionId } = await login(deps, {
            email,
            password: new Sensitive(form.password ?? ""),
            ip: ctx.ip,
            previousId: readSessionCookie(event),
          });
          return seeOther("/panel/", { "Set-Cookie": sessionCookie(deps, sessionId) });
        } catch (error) {
          if (!isApiError(error)) throw error;
          const problem = { code: error.code, message: `${PAGE_MESSAGES[error.code]} (${error.message})` };
          return loginPage(deps, problem, error.status, email, error.headers);
        }
      },
    },
    {
      method: "POST",
      path: "/panel/logout",
      auth: "panel:viewer",
      action: "logout",
      async handle(_event, _traceId, ctx) {
        if (ctx.session) await logout(deps, ctx.session);
        return seeOther(PANEL_LOGIN_PATH, { "Set-Cookie": sessionCookie(deps, null) });
      },
    },
  ];
}
