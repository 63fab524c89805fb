import type { Deps } from "../../deps";
import type { Repos } from "../../store/store";
import { CAPTURE_CHECK_TIMER } from "./check-timing";
import { connectionOfAttempt } from "./routing";
import type { AttemptRow } from "../../store/rows-money";

// An attempt at a bank that charges at its own 3D gate may have been charged though its callback
// never came; the unit that ends it opens the question to the bank, which gate-checks.ts asks.

/** In the unit that ends the attempts: opens a check, due now, for each one a 3D Pay gate may have charged. */
export async function askAboutGateCharges(
  tx: Repos,
  deps: Deps,
  attempts: readonly AttemptRow[],
  amount: number,
  nowMs: number,
): Promise<void> {
  for (const attempt of attempts) {
    if (attempt.status !== "acs") continue;
    const connectionId = connectionOfAttempt(attempt);
    const connection = await tx.catalog.connection(connectionId);
    if (!connection || !deps.banks.forConnection(connection).chargesAtGate) continue;
    await tx.bank.openCheck({ attemptId: attempt.id, connectionId, kind: "resolve", amount, bankReference: null, dueAtMs: nowMs }, nowMs);
    deps.timers.schedule(CAPTURE_CHECK_TIMER, attempt.id, nowMs);
  }
}
