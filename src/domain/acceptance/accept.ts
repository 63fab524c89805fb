import type { Deps } from "../../deps";
import { fail } from "../../errors";
import type { AgreementRow } from "../../store/acceptance-sql";

// Product 18: a panel admin accepts a `consent` agreement, which lifts the agreements_pending
// hold it caused (the guard reads unaccepted agreements, so nothing else needs to change). A
// `wet_signature` agreement is accepted by the operator once the paper arrives, never here.

export async function acceptConsentAgreement(deps: Pick<Deps, "store" | "clock">, partnerId: string, code: string, version: string): Promise<AgreementRow> {
  const agreement = deps.store.q.acceptance.agreement(partnerId, code, version);
  if (!agreement) fail("not_found", `agreement ${code} v${version} not found`);
  if (agreement.requirement !== "consent") fail("forbidden", "a wet_signature agreement is accepted by the operator once signed on paper");
  if (agreement.acceptedAtMs !== null) return agreement;
  await deps.store.write((tx) => tx.acceptance.accept(partnerId, code, deps.clock.nowMs()));
  return deps.store.q.acceptance.agreement(partnerId, code, version) ?? agreement;
}
