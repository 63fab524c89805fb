import * as v from "valibot";
import type { Clock } from "../../clock";
import { fail } from "../../errors";
import type { Ids } from "../../ids";
import { PANEL_PASSWORD_MAX_CHARS, PANEL_PASSWORD_MIN_CHARS } from "../../limits";
import type { Sensitive } from "../../sensitive";
import type { Store } from "../../store/store";
import { hashPassword } from "./password";
import type { PanelRole, PanelUserRow } from "../../store/rows";

// Panel users (docs/panel.md): one partner each, with a role. `kasa users …` and the panel's users
// page both call these, so the rules (address shape, one account per address, password length)
// are the same wherever a user is made or changed.

export type UserDeps = { store: Store; clock: Clock; ids: Ids };

export const PANEL_ROLES: readonly PanelRole[] = ["viewer", "staff", "admin"];

const ROLE_RANK: Record<PanelRole, number> = { viewer: 0, staff: 1, admin: 2 };

/** viewer reads; staff adds refunds, links and panel payments; admin adds keys, users, webhooks, agreements. */
export const roleAllows = (role: PanelRole, needed: PanelRole): boolean => ROLE_RANK[role] >= ROLE_RANK[needed];

const emailSchema = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254), v.email());

/** Addresses are compared lower-case: `Ali@x` and `ali@x` are one account. */
export function toEmail(input: string): string {
  const parsed = v.safeParse(emailSchema, input);
  if (!parsed.success) fail("validation_error", "email: not an e-mail address");
  return parsed.output;
}

export function toRole(input: string): PanelRole {
  if (!(PANEL_ROLES as readonly string[]).includes(input)) fail("validation_error", `role: one of ${PANEL_ROLES.join(", ")}`);
  return input as PanelRole;
}

function checkPassword(password: Sensitive<string>): void {
  const n = password.reveal().length;
  if (n < PANEL_PASSWORD_MIN_CHARS || n > PANEL_PASSWORD_MAX_CHARS) {
    fail("validation_error", `password: ${PANEL_PASSWORD_MIN_CHARS} to ${PANEL_PASSWORD_MAX_CHARS} characters`);
  }
}

export type NewUser = { partnerId: string; email: string; role: string; password?: Sensitive<string> };

/** Adds a user; without a password one is made, returned once, and never stored in clear. */
export async function addUser(deps: UserDeps, input: NewUser): Promise<{ user: PanelUserRow; password: Sensitive<string> }> {
  const email = toEmail(input.email);
  const role = toRole(input.role);
  const password = input.password ?? deps.ids.password();
  checkPassword(password);
  if (!(await deps.store.q.partners.get(input.partnerId))) fail("validation_error", `partner: unknown partner ${input.partnerId}`);
  const passwordHash = await hashPassword(password, deps.ids.salt());
  const nowMs = deps.clock.nowMs();
  const user: PanelUserRow = {
    id: deps.ids.userId(),
    partnerId: input.partnerId,
    email,
    role,
    passwordHash,
    status: "active",
    failedLogins: 0,
    lockedUntilMs: null,
    createdAtMs: nowMs,
    updatedAtMs: nowMs,
  };
  await deps.store.write(async (tx) => {
    // Taken says nothing of whose: the address may belong to another partner's user.
    if (await tx.panelUsers.byEmail(email)) fail("validation_error", "email: this address is taken");
    await tx.panelUsers.insert(user);
  });
  return { user, password };
}

/** `partnerId` scopes the lookup (the panel); null is the operator's view across partners. */
export async function userOf(deps: Pick<UserDeps, "store">, partnerId: string | null, idOrEmail: string): Promise<PanelUserRow> {
  const q = deps.store.q.panelUsers;
  const user = (await q.get(idOrEmail)) ?? (idOrEmail.includes("@") ? await q.byEmail(idOrEmail.trim().toLowerCase()) : undefined);
  if (!user || (partnerId !== null && user.partnerId !== partnerId)) fail("not_found", "user not found");
  return user;
}

/** Disabling ends the user's sessions at once; enabling lets them log in again. */
export async function setUserStatus(
  deps: UserDeps,
  partnerId: string | null,
  idOrEmail: string,
  status: PanelUserRow["status"],
): Promise<PanelUserRow> {
  const user = await userOf(deps, partnerId, idOrEmail);
  await deps.store.write(async (tx) => {
    await tx.panelUsers.setStatus(user.id, status, deps.clock.nowMs());
    if (status === "disabled") await tx.panelSessions.removeForUser(user.id);
  });
  return await userOf(deps, partnerId, user.id);
}

/** A new one-time password (or the given one); ends the user's sessions and clears a lock. */
export async function resetPassword(
  deps: UserDeps,
  partnerId: string | null,
  idOrEmail: string,
  given?: Sensitive<string>,
): Promise<{ user: PanelUserRow; password: Sensitive<string> }> {
  const user = await userOf(deps, partnerId, idOrEmail);
  const password = given ?? deps.ids.password();
  checkPassword(password);
  const hash = await hashPassword(password, deps.ids.salt());
  await deps.store.write(async (tx) => {
    await tx.panelUsers.setPassword(user.id, hash, deps.clock.nowMs());
    await tx.panelSessions.removeForUser(user.id);
    // An operator's reset is the way out of every lock on the account, from every address.
    await tx.loginFailures.clear(user.email, null);
  });
  return { user: await userOf(deps, partnerId, user.id), password };
}
