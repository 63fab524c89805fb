import type { Deps } from "../../deps";
import { fail } from "../../errors";
import { knownPartner } from "./service";
import type { AgreementRow } from "../../store/rows";

// Accepting agreements (docs/contract.md, Payment acceptance; docs/panel.md). The operator (`kasa agreements accept`) records any
// agreement once the partner has accepted it; a panel admin accepts a `consent` one, which lifts
// the agreements_pending hold it caused (the guard reads unaccepted agreements, nothing else
// changes). A `wet_signature` agreement is accepted by the operator once the paper arrives.

type AcceptDeps = Pick<Deps, "store" | "clock">;

/** Every pending version of the code, as the operator's command always did. */
export async function acceptAgreement(deps: AcceptDeps, partnerId: string, code: string): Promise<void> {
  await knownPartner(deps.store.q, partnerId);
  if (!(await deps.store.q.acceptance.agreements(partnerId)).some((a) => a.agreementCode === code))
    fail("not_found", `unknown agreement ${code} for ${partnerId}`);
  await deps.store.write((tx) => tx.acceptance.accept(partnerId, code, deps.clock.nowMs()));
}

export async function acceptConsentAgreement(deps: AcceptDeps, partnerId: string, code: string, version: string): Promise<AgreementRow> {
  const agreement = await deps.store.q.acceptance.agreement(partnerId, code, version);
  if (!agreement) fail("not_found", `agreement ${code} v${version} not found`);
  if (agreement.requirement !== "consent") fail("forbidden", "a wet_signature agreement is accepted by the operator once signed on paper");
  if (agreement.acceptedAtMs !== null) return agreement;
  await acceptAgreement(deps, partnerId, code);
  return (await deps.store.q.acceptance.agreement(partnerId, code, version)) ?? agreement;
}
