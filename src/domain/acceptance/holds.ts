import type { Deps } from "../../deps";
import { knownPartner } from "./service";

// The operator's admin hold (`kasa holds set|clear`): while it is set, the partner's new payments,
// links and refunds are refused with partner_not_active; it is effective from the moment it is
// set. Setting it again keeps the first moment (the store's setHold leaves an existing hold).

type HoldDeps = Pick<Deps, "store" | "clock">;

export async function setAdminHold(deps: HoldDeps, partnerId: string): Promise<void> {
  await deps.store.write(async (tx) => {
    await knownPartner(tx, partnerId);
    await tx.acceptance.setHold({ partnerId, reason: "admin_hold", sinceMs: deps.clock.nowMs() });
  });
}

export async function clearAdminHold(deps: Pick<Deps, "store">, partnerId: string): Promise<void> {
  await deps.store.write(async (tx) => {
    await knownPartner(tx, partnerId);
    await tx.acceptance.clearHold(partnerId, "admin_hold");
  });
}
