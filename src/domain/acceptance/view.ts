import { istanbulDate } from "../checks/istanbul-time";
import { toIso } from "../../iso-time";
import type { Acceptance } from "./service";

/** docs/contract.md#payment-acceptance wire shape. */
export function toAcceptanceJson(a: Acceptance, nowMs: number) {
  return {
    acceptingPayments: a.acceptingPayments,
    partnerStatus: a.partnerStatus,
    holds: a.holds.map((h) => ({ reason: h.reason, effective: h.effective, effectiveAt: toIso(h.effectiveAtMs), since: toIso(h.sinceMs) })),
    agreements:
      a.pendingAgreements?.map((g) => ({
        agreementCode: g.agreementCode,
        agreementName: g.agreementName,
        version: g.version,
        requirement: g.requirement,
        kind: g.kind,
        deadlineAt: g.deadlineAtMs === null ? null : toIso(g.deadlineAtMs),
        lastDay: g.deadlineAtMs === null ? null : istanbulDate(g.deadlineAtMs),
        // docs/decisions.md, Readings of the contract: expired = deadline passed and not accepted (these are all unaccepted).
        expired: g.deadlineAtMs !== null && nowMs >= g.deadlineAtMs,
        // The version is in force for the partner from the moment it was registered.
        effectiveAt: toIso(g.createdAtMs),
      })) ?? null,
  };
}
