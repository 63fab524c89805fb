import type { H3Event } from "h3";
import type { Deps } from "../deps";
import { fail } from "../errors";
import { checkCsrf, resumeSession, type PanelSession } from "../domain/users/sessions";
import { roleAllows } from "../domain/users/service";
import { Sensitive } from "../sensitive";
import type { PanelRole } from "../store/rows";

// The page pipeline's auth column for the merchant panel (docs/panel.md): the cookie names a
// server-side session, the route names the least role, and every POST carries the CSRF token.

export const SESSION_COOKIE = "kasa_panel";
export const PANEL_LOGIN_PATH = "/panel/login";

export function readSessionCookie(event: H3Event): Sensitive<string> | null {
  const header = event.req.headers.get("cookie") ?? "";
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE && rest.length > 0) return new Sensitive(rest.join("="));
  }
  return null;
}

/** HttpOnly, SameSite=Strict, Secure over https; no Max-Age: the server's row decides how long. */
export function sessionCookie(deps: Deps, id: Sensitive<string> | null): string {
  const secure = deps.config.baseUrl.startsWith("https:") ? "; Secure" : "";
  const value = id === null ? "; Max-Age=0" : "";
  return `${SESSION_COOKIE}=${id === null ? "" : id.reveal()}; Path=/panel; HttpOnly; SameSite=Strict${secure}${value}`;
}

export type Authorized = { session: PanelSession } | { redirect: Response };

/**
 * No live session: a GET goes to the login page, a POST is a 401 page (its form is lost either
 * way, and a redirect would hide that).
 */
export async function resumeOrRedirect(deps: Deps, event: H3Event): Promise<Authorized> {
  const id = readSessionCookie(event);
  const session = id === null ? null : await resumeSession(deps, id);
  if (session !== null) return { session };
  if (event.req.method === "GET") {
    return {
      redirect: new Response(null, {
        status: 303,
        headers: { Location: PANEL_LOGIN_PATH, "Cache-Control": "no-store", "Set-Cookie": sessionCookie(deps, null) },
      }),
    };
  }
  return fail("unauthorized", "the session has ended; log in again");
}

/**
 * A panel POST (the login form included) must come from kasa's own pages: a browser says where a
 * form came from in `Origin`, which must be the base URL's origin (`null`, what a sandboxed frame
 * or a no-referrer page sends, is refused), or else in `Sec-Fetch-Site`, which must be
 * same-origin. A client that sends neither is not a browser (curl, the tests) and passes: CSRF is
 * a browser's problem, and the session's token still has to be right.
 */
export function refuseForeignOrigin(deps: Deps, headers: Headers): void {
  const origin = headers.get("origin");
  if (origin !== null) {
    if (origin !== new URL(deps.config.baseUrl).origin) fail("forbidden", "the form was posted from another site");
    return;
  }
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") fail("forbidden", "the form was posted from another site");
}

/** A POST's CSRF token first (403), then the route's least role (403). */
export function checkAccess(session: PanelSession, role: PanelRole, form: Record<string, string> | null): void {
  if (form !== null) checkCsrf(session, form.csrf);
  if (!roleAllows(session.user.role, role)) fail("forbidden", `this needs the ${role} role`);
}
