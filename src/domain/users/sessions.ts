import { timingSafeEqual } from "node:crypto";
import type { Deps } from "../../deps";
import { fail, isApiError } from "../../errors";
import { hashSessionId } from "../../ids";
import { PANEL_SESSION_ABSOLUTE_MS, PANEL_SESSION_IDLE_MS, PANEL_TOUCH_EVERY_MS } from "../../limits";
import type { Sensitive } from "../../sensitive";
import { recordAudit } from "./audit";
import { oneCheckAtATime, reserveCheck, withHashSlot } from "./login-guard";
import { hashPassword, verifyPassword } from "./password";
import type { PanelUserRow } from "../../store/rows";

// Panel sessions (docs/panel.md): server-side rows keyed by the SHA-256 of a random id the cookie
// carries; idle 30 minutes, absolute 12 hours, both read from deps.clock. Logging in always makes
// a new id (a pre-login id is never promoted: no fixation); logging out deletes the row.

export type PanelSession = { user: PanelUserRow; idHash: string; csrfToken: string };

type LoginInput = { email: string; password: Sensitive<string>; ip: string; previousId: Sensitive<string> | null };

const WRONG = "wrong e-mail address or password";

/** Compared against when the address has no account, so an unknown address costs one hash too. */
let dummyHash: Promise<string> | undefined;
function hashToCompare(deps: Deps, user: PanelUserRow | undefined): Promise<string> {
  if (user) return Promise.resolve(user.passwordHash);
  dummyHash ??= hashPassword(deps.ids.password(), deps.ids.salt());
  return dummyHash;
}

/**
 * The allowances first (login-guard.ts: a locked (address, source) pair is a 403, an account under
 * a burst of failures a 429), with this check counted as a failure before the hash runs; then one
 * hash, whether the address has an account or not; an unknown, disabled or wrong one is the same
 * 401. A right password removes its own count and that source's earlier failures, never a lock:
 * a locked pair never reaches the hash.
 */
export async function login(deps: Deps, input: LoginInput): Promise<{ sessionId: Sensitive<string>; session: PanelSession }> {
  if (input.previousId !== null) await logoutById(deps, input.previousId);
  const email = input.email.trim().toLowerCase();
  return await oneCheckAtATime(email, async () => {
    const user = await deps.store.q.panelUsers.byEmail(email);
    const nowMs = deps.clock.nowMs();
    const audit = (outcome: string) => ({ action: "login", target: null, outcome, ip: input.ip });
    let reserved: number;
    try {
      reserved = await deps.store.write((tx) => reserveCheck(tx, email, input.ip, nowMs));
    } catch (error) {
      if (user && isApiError(error)) await deps.store.write((tx) => recordAudit(tx, user, audit(error.code), nowMs));
      throw error;
    }
    const right = await withHashSlot(async () => verifyPassword(input.password, await hashToCompare(deps, user)));
    if (user?.status !== "active" || !right) {
      if (user) await deps.store.write((tx) => recordAudit(tx, user, audit("unauthorized"), nowMs));
      fail("unauthorized", WRONG);
    }
    const sessionId = deps.ids.sessionId();
    const session: PanelSession = { user, idHash: hashSessionId(sessionId), csrfToken: deps.ids.csrfToken() };
    await deps.store.write(async (tx) => {
      await tx.loginFailures.remove(reserved);
      await tx.loginFailures.clear(email, input.ip);
      await tx.panelSessions.insert({
        idHash: session.idHash,
        userId: user.id,
        csrfToken: session.csrfToken,
        createdAtMs: nowMs,
        lastSeenAtMs: nowMs,
      });
      await recordAudit(tx, user, audit("ok"), nowMs);
    });
    return { sessionId, session };
  });
}

/** The session a cookie names, if it is alive and its user active; an expired one is deleted. */
export async function resumeSession(deps: Deps, sessionId: Sensitive<string>): Promise<PanelSession | null> {
  const idHash = hashSessionId(sessionId);
  const row = await deps.store.q.panelSessions.get(idHash);
  if (!row) return null;
  const nowMs = deps.clock.nowMs();
  const user = await deps.store.q.panelUsers.get(row.userId);
  const expired = nowMs - row.lastSeenAtMs >= PANEL_SESSION_IDLE_MS || nowMs - row.createdAtMs >= PANEL_SESSION_ABSOLUTE_MS;
  if (expired || !user || user.status !== "active") {
    await deps.store.write((tx) => tx.panelSessions.remove(idHash));
    return null;
  }
  if (nowMs - row.lastSeenAtMs >= PANEL_TOUCH_EVERY_MS) await deps.store.write((tx) => tx.panelSessions.touch(idHash, nowMs));
  return { user, idHash, csrfToken: row.csrfToken };
}

/** Ends the session server-side: the cookie, if kept or stolen, opens nothing afterwards. */
export async function logout(deps: Deps, session: PanelSession): Promise<void> {
  await deps.store.write((tx) => tx.panelSessions.remove(session.idHash));
}

async function logoutById(deps: Deps, sessionId: Sensitive<string>): Promise<void> {
  const idHash = hashSessionId(sessionId);
  if (await deps.store.q.panelSessions.get(idHash)) await deps.store.write((tx) => tx.panelSessions.remove(idHash));
}

/** Every panel POST carries the session's token (403 without it or with another session's). */
export function checkCsrf(session: PanelSession, token: string | undefined): void {
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(token ?? "");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    fail("forbidden", "the form's CSRF token is missing or belongs to another session");
}
