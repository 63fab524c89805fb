import { afterEach, describe, expect, it } from "vitest";
import { harness, T0, type Harness } from "../support/harness";
import { TEST_SEED } from "../support/fixtures";
import { HOUR_MS } from "../../src/limits";

let h: Harness;
afterEach(async () => h?.close());

describe("interface 4.12 / 2.6 payment-acceptance status (product 10)", () => {
  it("an active partner without holds accepts payments", async () => {
    h = await harness();
    const r = await h.get("/v1/payment-acceptance");
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ acceptingPayments: true, partnerStatus: "active", holds: [], agreements: null });
  });

  it.each(["suspended", "closed"] as const)("a %s partner does not accept payments", async (status) => {
    h = await harness({ seed: { ...TEST_SEED, partners: TEST_SEED.partners!.map((p) => ({ ...p, status })) } });
    const r = await h.get("/v1/payment-acceptance");
    expect(r.json).toMatchObject({ acceptingPayments: false, partnerStatus: status });
  });

  it("an admin_hold is effective from when it was set", async () => {
    h = await harness({ seed: { ...TEST_SEED, holds: [{ partner: "ptn_test", reason: "admin_hold" }] } });
    const r = await h.get("/v1/payment-acceptance");
    const at = new Date(T0).toISOString();
    expect(r.json.acceptingPayments).toBe(false);
    expect(r.json.holds).toEqual([{ reason: "admin_hold", effective: true, effectiveAt: at, since: at }]);
  });

  it("agreements_pending becomes effective at the deadline; lastDay is the Istanbul date (product 16)", async () => {
    const deadline = "2026-11-20T22:30:00.000Z"; // 01:30 on 21 Nov in Istanbul
    h = await harness({
      seed: {
        ...TEST_SEED,
        agreements: [
          {
            partner: "ptn_test",
            agreementCode: "DPA",
            agreementName: "Data Processing",
            version: "2",
            requirement: "consent",
            kind: "renewal",
            deadlineAt: deadline,
          },
        ],
      },
    });
    let r = await h.get("/v1/payment-acceptance");
    expect(r.json.acceptingPayments).toBe(true);
    expect(r.json.holds).toEqual([
      { reason: "agreements_pending", effective: false, effectiveAt: deadline, since: new Date(T0).toISOString() },
    ]);
    expect(r.json.agreements).toEqual([
      {
        agreementCode: "DPA",
        agreementName: "Data Processing",
        version: "2",
        requirement: "consent",
        kind: "renewal",
        deadlineAt: deadline,
        lastDay: "2026-11-21",
        expired: false,
        effectiveAt: new Date(T0).toISOString(),
      },
    ]);
    h.clock.set(Date.parse(deadline));
    r = await h.get("/v1/payment-acceptance");
    expect(r.json.acceptingPayments).toBe(false);
    expect(r.json.holds[0].effective).toBe(true);
    expect(r.json.agreements[0].expired).toBe(true);
  });

  it("an accepted agreement is no longer listed and lifts the hold", async () => {
    const deadlineAt = new Date(T0 - HOUR_MS).toISOString();
    const agreement = {
      partner: "ptn_test",
      agreementCode: "DPA",
      agreementName: "Data Processing",
      version: "2",
      requirement: "consent" as const,
      kind: "renewal" as const,
      deadlineAt,
    };
    h = await harness({ seed: { ...TEST_SEED, agreements: [agreement] } });
    expect((await h.get("/v1/payment-acceptance")).json.acceptingPayments).toBe(false);
    await h.store.write(async (tx) => await tx.acceptance.accept("ptn_test", "DPA", h.clock.nowMs()));
    const r = await h.get("/v1/payment-acceptance");
    expect(r.json).toMatchObject({ acceptingPayments: true, holds: [], agreements: null });
  });

  it("is scoped to the calling partner", async () => {
    h = await harness({ seed: { ...TEST_SEED, holds: [{ partner: "ptn_other", reason: "admin_hold" }] } });
    expect((await h.get("/v1/payment-acceptance")).json.acceptingPayments).toBe(true);
  });
});
