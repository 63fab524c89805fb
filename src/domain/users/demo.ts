import type { Sensitive } from "../../sensitive";
import { DEMO_PARTNER_ID } from "../partners/demo-seed";
import { addUser, resetPassword, type UserDeps } from "./service";

export const DEMO_PANEL_EMAIL = "demo@kasa.test";

/**
 * docs/panel.md: the sandbox's panel admin. Only the hash is stored, so the banner can print a
 * password only when it has just been set: made on a fresh sandbox, renewed at every start (which
 * also ends the demo user's old sessions). Only when the demo partner exists.
 */
export async function ensureDemoPanelUser(deps: UserDeps): Promise<Sensitive<string> | null> {
  if (!(await deps.store.q.partners.get(DEMO_PARTNER_ID))) return null;
  if (await deps.store.q.panelUsers.byEmail(DEMO_PANEL_EMAIL))
    return (await resetPassword(deps, DEMO_PARTNER_ID, DEMO_PANEL_EMAIL)).password;
  return (await addUser(deps, { partnerId: DEMO_PARTNER_ID, email: DEMO_PANEL_EMAIL, role: "admin" })).password;
}
