import * as v from "valibot";
import { fail } from "../../errors";
import type { Store } from "../../store/store";
import { describeIssue } from "../checks/valibot-issue";
import { partner as partnerSchema } from "./seed-schema";
import type { PartnerRow } from "../../store/rows";

// An operator's change to a partner's settings (`kasa partners set`). The changed partner is
// checked whole by the seed file's own schema, so an edit can never store what a seed file could
// not; `null` removes an optional setting.

export type PartnerPatch = Partial<Omit<PartnerRow, "id" | "createdAtMs">>;

/**
 * The changed partner, or a `validation_error` whose message starts with the seed file's path of
 * the field (`amountLimits.min: …`), so a caller can name its own input for it.
 */
export function toEditedPartner(row: PartnerRow, patch: PartnerPatch): PartnerRow {
  const next = { ...row, ...patch };
  const asSeed = {
    id: next.id,
    name: next.name,
    status: next.status,
    webhook: { url: next.webhookUrl, secret: next.webhookSecret },
    allowedRedirectHosts: next.allowedRedirectHosts,
    amountLimits: { min: next.amountMin, max: next.amountMax },
    cardAttemptLimit: next.cardAttemptLimit,
    installmentCap: next.installmentCap,
    rateLimitMultiplier: next.rateLimitMultiplier,
    payoutAccount: next.payoutAccount,
  };
  const result = v.safeParse(partnerSchema, asSeed, { abortPipeEarly: true });
  if (!result.success) fail("validation_error", describeIssue(result.issues[0]));
  if (next.amountMin !== null && next.amountMax !== null && next.amountMin > next.amountMax) {
    fail("validation_error", `amountLimits.min: must be <= the maximum (${next.amountMax})`);
  }
  const hosts = next.allowedRedirectHosts;
  return { ...next, allowedRedirectHosts: hosts === null ? null : [...new Set(hosts)] };
}

/** One unit: the partner as it stands, the patch checked against it, the row written; answers the new row. */
export async function editPartner(deps: { store: Store }, partnerId: string, patch: PartnerPatch): Promise<PartnerRow> {
  return await deps.store.write(async (tx) => {
    const row = await tx.partners.get(partnerId);
    if (!row) fail("not_found", `unknown partner ${partnerId}`);
    const next = toEditedPartner(row, patch);
    await tx.partners.upsert(next);
    return next;
  });
}
