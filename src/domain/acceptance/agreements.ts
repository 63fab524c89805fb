import type { Deps } from "../../deps";
import { knownPartner } from "./service";
import type { AgreementRow } from "../../store/rows";

// The operator registers an agreement a partner must accept (`kasa agreements add`). Once its
// deadline has passed and it is still unaccepted, the partner's payments stop (agreements_pending)
// until it is accepted. Registering the same code and version again changes its terms but keeps
// whether and when it was accepted, and when it was first registered.

export type NewAgreement = Pick<AgreementRow, "agreementCode" | "version" | "agreementName" | "requirement" | "kind" | "deadlineAtMs">;

export async function addAgreement(deps: Pick<Deps, "store" | "clock">, partnerId: string, agreement: NewAgreement): Promise<void> {
  await deps.store.write(async (tx) => {
    await knownPartner(tx, partnerId);
    const existing = await tx.acceptance.agreement(partnerId, agreement.agreementCode, agreement.version);
    await tx.acceptance.upsertAgreement({
      ...agreement,
      partnerId,
      acceptedAtMs: existing?.acceptedAtMs ?? null,
      createdAtMs: existing?.createdAtMs ?? deps.clock.nowMs(),
    });
  });
}
