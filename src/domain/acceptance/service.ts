import { fail } from "../../errors";
import type { Repos } from "../../store/store";
import type { AgreementRow, PartnerRow } from "../../store/rows";

export type HoldView = { reason: "admin_hold" | "agreements_pending"; effective: boolean; effectiveAtMs: number; sinceMs: number };

export type Acceptance = {
  acceptingPayments: boolean;
  partnerStatus: PartnerRow["status"];
  holds: HoldView[];
  /** Agreements still to be accepted (docs/contract.md, Payment acceptance); null when none is pending. */
  pendingAgreements: AgreementRow[] | null;
};

/**
 * docs/contract.md, Payment acceptance: `acceptingPayments` = partner active and no effective hold. An `admin_hold` is
 * effective from the moment it is set. `agreements_pending` is listed once any unaccepted
 * agreement has a deadline, effective from the earliest such deadline; an unaccepted agreement
 * without a deadline is listed among the agreements but never blocks payments.
 */
export async function acceptanceOf(q: Repos, partner: PartnerRow, nowMs: number): Promise<Acceptance> {
  const holds: HoldView[] = (await q.acceptance.holds(partner.id)).map((h) => ({
    reason: h.reason,
    effective: true,
    effectiveAtMs: h.sinceMs,
    sinceMs: h.sinceMs,
  }));
  const pending = (await q.acceptance.agreements(partner.id)).filter((a) => a.acceptedAtMs === null);
  const dated = pending.filter((a) => a.deadlineAtMs !== null);
  if (dated.length > 0) {
    const earliest = Math.min(...dated.map((a) => a.deadlineAtMs!));
    const since = Math.min(...dated.map((a) => a.createdAtMs));
    holds.push({ reason: "agreements_pending", effective: nowMs >= earliest, effectiveAtMs: earliest, sinceMs: since });
  }
  return {
    acceptingPayments: partner.status === "active" && !holds.some((h) => h.effective),
    partnerStatus: partner.status,
    holds,
    pendingAgreements: pending.length > 0 ? pending : null,
  };
}

/**
 * The guard of new payments, new links and partner refunds (docs/contract.md, Payment acceptance): 403 partner_not_active.
 * The same rule as `acceptanceOf(...).acceptingPayments`, asked as one EXISTS query because it
 * runs inside every create's unit of work (issue 11: reading both lists was ~20% of a create).
 */
export async function assertAcceptingPayments(q: Repos, partner: PartnerRow, nowMs: number): Promise<void> {
  if (partner.status !== "active" || (await q.acceptance.blocksPayments(partner.id, nowMs))) fail("partner_not_active");
}

/** The partner an operator's action names, read in the caller's unit; 404 `unknown partner …` otherwise. */
export async function knownPartner(q: Repos, partnerId: string): Promise<PartnerRow> {
  return (await q.partners.get(partnerId)) ?? fail("not_found", `unknown partner ${partnerId}`);
}
