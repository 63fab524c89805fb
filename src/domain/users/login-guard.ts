import { fail } from "../../errors";
import {
  PANEL_ACCOUNT_FAILURES_MAX,
  PANEL_ACCOUNT_WINDOW_MS,
  PANEL_HASHES_AT_ONCE,
  PANEL_LOCK_MS,
  PANEL_LOGIN_FAILURES_MAX,
} from "../../limits";
import type { Repos } from "../../store/store";

// What stands between a password guesser and the hash (docs/panel.md, Getting in). A failure is
// counted BEFORE the hash runs (a row written and removed again if the password was right), so a
// parallel burst cannot test more passwords than the allowance; one address's checks never run
// concurrently in this process, and at most PANEL_HASHES_AT_ONCE hashes run at all.
//
// Two allowances, both over the address typed (known or not, so both answer alike):
// - per (address, source): 5 failures within 15 minutes lock that pair (403) until the oldest of
//   them is 15 minutes old; another source is not affected, so an attacker elsewhere cannot lock
//   the owner out;
// - per address, every source: 50 failures within an hour slow every source that has failed in
//   that hour (429 with Retry-After); a source with no failure, the owner's, still gets through.

export const LOCKED_MESSAGE = "this account is locked for 15 minutes after 5 failed logins from this address";

/** Checks the allowances and counts this check as a failure; answers the row to remove if it succeeds. */
export async function reserveCheck(tx: Repos, email: string, ip: string, nowMs: number): Promise<number> {
  await tx.loginFailures.lock(email);
  await tx.loginFailures.prune(nowMs - Math.max(PANEL_ACCOUNT_WINDOW_MS, PANEL_LOCK_MS));
  const recent = await tx.loginFailures.since(
    email,
    nowMs - PANEL_ACCOUNT_WINDOW_MS,
    PANEL_ACCOUNT_FAILURES_MAX + PANEL_LOGIN_FAILURES_MAX,
  );
  const fromHere = recent.filter((f) => f.ip === ip && f.atMs > nowMs - PANEL_LOCK_MS);
  if (fromHere.length >= PANEL_LOGIN_FAILURES_MAX) fail("forbidden", LOCKED_MESSAGE);
  if (recent.length >= PANEL_ACCOUNT_FAILURES_MAX && recent.some((f) => f.ip === ip)) {
    const oldest = recent[PANEL_ACCOUNT_FAILURES_MAX - 1]?.atMs ?? nowMs;
    const waitS = Math.max(1, Math.ceil((oldest + PANEL_ACCOUNT_WINDOW_MS - nowMs) / 1000));
    fail("rate_limited", "too many failed logins for this account; try again later", { "retry-after": String(waitS) });
  }
  return await tx.loginFailures.insert(email, ip, nowMs);
}

/**
 * When the account's last (address, source) lock lifts, or null when no source is locked: what
 * `kasa users list` shows. A pair is locked while 5 of its failures are younger than 15 minutes,
 * so its lock lifts when the fifth newest turns 15 minutes old.
 */
export async function lockedUntilMs(q: Pick<Repos, "loginFailures">, email: string, nowMs: number): Promise<number | null> {
  const recent = await q.loginFailures.since(email, nowMs - PANEL_LOCK_MS + 1, PANEL_ACCOUNT_FAILURES_MAX + PANEL_LOGIN_FAILURES_MAX);
  const seen = new Map<string, number>();
  let until: number | null = null;
  // Newest first: the fifth row met of a source is its fifth newest failure.
  for (const f of recent) {
    const n = (seen.get(f.ip) ?? 0) + 1;
    seen.set(f.ip, n);
    if (n === PANEL_LOGIN_FAILURES_MAX) until = Math.max(until ?? 0, f.atMs + PANEL_LOCK_MS);
  }
  return until;
}

/** Runs `check` after every earlier check of the same address in this process has finished. */
const running = new Map<string, Promise<unknown>>();
export async function oneCheckAtATime<T>(email: string, check: () => Promise<T>): Promise<T> {
  const before = running.get(email) ?? Promise.resolve();
  const mine = before.then(check, check);
  const settled = mine.catch(() => undefined);
  running.set(email, settled);
  try {
    return await mine;
  } finally {
    if (running.get(email) === settled) running.delete(email);
  }
}

/** A slot among PANEL_HASHES_AT_ONCE: memory for Argon2id is bounded whatever the burst. */
let busy = 0;
const waiting: Array<() => void> = [];
export async function withHashSlot<T>(hash: () => Promise<T>): Promise<T> {
  if (busy >= PANEL_HASHES_AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
  else busy += 1;
  try {
    return await hash();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else busy -= 1;
  }
}

/** How many hashes run now (tests watch the cap). */
export const hashesRunning = (): number => busy;
