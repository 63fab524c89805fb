import type { H3Event } from "h3";
import type { PanelSession } from "../domain/users/sessions";
import type { PageAuth, PageRoute } from "../http/page";
import { invariant } from "../invariant";

/** What a panel page gets once the pipeline has resumed the session (and read a POST's form). */
export type PanelContext = { session: PanelSession; form: Record<string, string>; ip: string };

/** A panel row: like a page row, but its auth is a role, so its handler always has a session. */
export type PanelRoute = Omit<PageRoute, "auth" | "handle"> & {
  auth: Exclude<PageAuth, "none">;
  handle(event: H3Event, ctx: PanelContext): Promise<Response> | Response;
};

export const toPageRoute = (route: PanelRoute): PageRoute => ({
  ...route,
  handle(event, _traceId, ctx) {
    invariant(ctx.session !== null, `the pipeline resumes a session before ${route.path}`);
    return route.handle(event, { session: ctx.session, form: ctx.form ?? {}, ip: ctx.ip });
  },
});
