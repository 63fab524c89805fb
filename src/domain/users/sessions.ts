import { timingSafeEqual } from "node:crypto";
import type { Deps } from "../../deps";
import { fail } from "../../errors";
import { hashSessionId } from "../../ids";
import {
  PANEL_LOCK_MS,
  PANEL_LOGIN_FAILURES_MAX,
  PANEL_SESSION_ABSOLUTE_MS,
  PANEL_SESSION_IDLE_MS,
  PANEL_TOUCH_EVERY_MS,
} from "../../limits";
import type { Sensitive } from "../../sensitive";
import { recordAudit } from "./audit";
import { verifyPassword } from "./password";
import type { PanelUserRow } from "../../store/rows";

// Panel sessions (product 18): server-side rows keyed by the SHA-256 of a random id the cookie
// carries; idle 30 minutes, absolute 12 hours, both read from deps.clock. Logging in always makes
// a new id (a pre-login id is never promoted: no fixation); logging out deletes the row.

export type PanelSession = { user: PanelUserRow; idHash: string; csrfToken: string };

type LoginInput = { email: string; password: Sensitive<string>; ip: string; previousId: Sensitive<string> | null };

const WRONG = "wrong e-mail address or password";

/**
 * Checks in this order: unknown or disabled account (401, same words as a wrong password, so
 * addresses cannot be probed), lock (403, before the password is even looked at), password
 * (401; the fifth failure in a row locks the account for 15 minutes).
 */
export async function login(deps: Deps, input: LoginInput): Promise<{ sessionId: Sensitive<string>; session: PanelSession }> {
  if (input.previousId !== null) await logoutById(deps, input.previousId);
  const user = await deps.store.q.panelUsers.byEmail(input.email.trim().toLowerCase());
  const nowMs = deps.clock.nowMs();
  const audit = (outcome: string) => ({ action: "login", target: null, outcome, ip: input.ip });
  if (!user) fail("unauthorized", WRONG);
  if (user.status !== "active") {
    await deps.store.write((tx) => recordAudit(tx, user, audit("unauthorized"), nowMs));
    fail("unauthorized", WRONG);
  }
  if (user.lockedUntilMs !== null && user.lockedUntilMs > nowMs) {
    await deps.store.write((tx) => recordAudit(tx, user, audit("forbidden"), nowMs));
    fail("forbidden", "this account is locked for 15 minutes after 5 failed logins");
  }
  if (!(await verifyPassword(input.password, user.passwordHash))) {
    await deps.store.write(async (tx) => {
      // Counted inside the unit from the row as it is now, so parallel guesses all count.
      const failures = ((await tx.panelUsers.get(user.id))?.failedLogins ?? 0) + 1;
      const locks = failures >= PANEL_LOGIN_FAILURES_MAX;
      await tx.panelUsers.recordFailure(user.id, locks ? 0 : failures, locks ? nowMs + PANEL_LOCK_MS : null, nowMs);
      await recordAudit(tx, user, audit("unauthorized"), nowMs);
    });
    fail("unauthorized", WRONG);
  }
  const sessionId = deps.ids.sessionId();
  const session: PanelSession = { user, idHash: hashSessionId(sessionId), csrfToken: deps.ids.csrfToken() };
  await deps.store.write(async (tx) => {
    await tx.panelUsers.clearFailures(user.id);
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
