import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CaptureCheckRow } from "../../src/store/rows-money";
import { bothStores, type Both } from "./differential";
import { newPayment, type Ops, onBoth, seedWorld, T0 } from "./payments-world";

// Issue 23: the bank group (the one-Auth claim, capture follow-ups) answers on PostgreSQL as on SQLite.

let both: Both;
beforeEach(async () => {
  both = await bothStores();
  await seedWorld(both);
  await onBoth(both, async (o) => {
    await o.payments.insert(newPayment(1));
    for (const id of ["att_1", "att_2", "att_3"]) {
      await o.attempts.insert({
        terminalId: null,
        connectionId: null,
        id,
        paymentCode: newPayment(1).code,
        status: "capturing",
        counted: true,
        createdAtMs: T0,
      });
    }
  });
});
afterEach(async () => both.close());

const check = (
  attemptId: string,
  dueAtMs: number,
): Pick<CaptureCheckRow, "connectionId" | "amount" | "attemptId" | "kind" | "bankReference" | "dueAtMs"> => ({
  attemptId,
  connectionId: "vpos-1",
  kind: "resolve",
  amount: 1_001,
  bankReference: null,
  dueAtMs,
});

describe("product 22: bank operations answer on PostgreSQL as on SQLite", () => {
  it("claimAuth claims once per attempt; authClaimed tells", async () => {
    const steps = async (o: Ops) => [
      await o.bank.authClaimed("att_1"),
      await o.bank.claimAuth("att_1", T0),
      await o.bank.claimAuth("att_1", T0 + 1),
      await o.bank.authClaimed("att_1"),
      await o.bank.authClaimed("att_2"),
    ];
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite).toEqual([false, true, false, true, false]);
  });

  it("openCheck, retryCheck, finishCheck, re-aiming, check and openChecks (due order, id breaking ties)", async () => {
    const steps = async (o: Ops) => [
      await o.bank.check("att_1"),
      await o.bank.openCheck(check("att_2", T0 + 500), T0),
      await o.bank.openCheck(check("att_1", T0 + 500), T0),
      await o.bank.openCheck({ ...check("att_3", T0 + 100), kind: "void", bankReference: "br-3" }, T0),
      await o.bank.openChecks(),
      await o.bank.retryCheck("att_1", T0 + 900, T0 + 1),
      await o.bank.openChecks(),
      await o.bank.finishCheck("att_3", "voided", T0 + 2),
      await o.bank.finishCheck("att_3", "void_declined", T0 + 3),
      await o.bank.retryCheck("att_3", T0 + 900, T0 + 4),
      await o.bank.check("att_3"),
      await o.bank.openCheck({ ...check("att_3", T0 + 50), bankReference: "br-new" }, T0 + 5),
      await o.bank.check("att_3"),
      await o.bank.openChecks(),
    ];
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    expect(sqlite[10]).toEqual({
      ...check("att_3", 0),
      kind: "void",
      bankReference: "br-3",
      tries: 1,
      dueAtMs: null,
      outcome: "voided",
      updatedAtMs: T0 + 2,
    });
    expect((sqlite[4] as CaptureCheckRow[]).map((c) => c.attemptId)).toEqual(["att_3", "att_1", "att_2"]);
    expect((sqlite[6] as CaptureCheckRow[]).map((c) => c.attemptId)).toEqual(["att_3", "att_2", "att_1"]);
    expect((sqlite[13] as CaptureCheckRow[]).map((c) => c.attemptId)).toEqual(["att_3", "att_2", "att_1"]);
  });
});
