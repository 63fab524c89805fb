import { afterEach, describe, expect, it } from "vitest";
import { acceptanceOf, assertAcceptingPayments } from "../../../src/domain/acceptance/service";
import { HOUR_MS } from "../../../src/limits";
import type { SeedFile } from "../../../src/domain/partners/seed-schema";
import { TEST_SEED } from "../../support/fixtures";
import { harness, T0, type Harness } from "../../support/harness";

// The create-path guard asks one EXISTS query (issue 11); it must agree with the status view's
// `acceptingPayments` (product 10) in every case the view distinguishes.

let h: Harness;
afterEach(async () => h?.close());

const agreement = (deadlineAtMs: number | null) => ({
  partner: "ptn_test",
  agreementCode: "DPA",
  agreementName: "Data Processing",
  version: "2",
  requirement: "consent" as const,
  kind: "renewal" as const,
  deadlineAt: deadlineAtMs === null ? null : new Date(deadlineAtMs).toISOString(),
});

const CASES: Array<[string, Partial<SeedFile>, boolean]> = [
  ["no holds, no agreements", {}, true],
  ["an admin_hold", { holds: [{ partner: "ptn_test", reason: "admin_hold" }] }, false],
  ["another partner's admin_hold", { holds: [{ partner: "ptn_other", reason: "admin_hold" }] }, true],
  ["an unaccepted agreement without a deadline", { agreements: [agreement(null)] }, true],
  ["an unaccepted agreement due later", { agreements: [agreement(T0 + HOUR_MS)] }, true],
  ["an unaccepted agreement due exactly now", { agreements: [agreement(T0)] }, false],
  ["an unaccepted agreement past its deadline", { agreements: [agreement(T0 - HOUR_MS)] }, false],
  ["an accepted agreement past its deadline", { agreements: [{ ...agreement(T0 - HOUR_MS), accepted: true }] }, true],
  ["a suspended partner", { partners: TEST_SEED.partners!.map((p) => ({ ...p, status: "suspended" as const })) }, false],
];

describe("product 10 guard of new payments, links and refunds", () => {
  it.each(CASES)("%s", async (_name, extra, accepting) => {
    h = await harness({ seed: { ...TEST_SEED, ...extra } });
    const partner = (await h.store.q.partners.get("ptn_test"))!;
    const nowMs = h.clock.nowMs();
    expect((await acceptanceOf(h.store.q, partner, nowMs)).acceptingPayments).toBe(accepting);
    const guard = assertAcceptingPayments(h.store.q, partner, nowMs);
    if (accepting) await expect(guard).resolves.toBeUndefined();
    else await expect(guard).rejects.toThrow(expect.objectContaining({ code: "partner_not_active" }));
  });
});
