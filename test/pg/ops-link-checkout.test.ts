import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bothStores, type Both } from "./differential";
import { newPayment, type Ops, onBoth, seedWorld, T0 } from "./payments-world";

// Issue 23: the link-checkout reads answer on PostgreSQL as on SQLite.

let both: Both;
beforeEach(async () => {
  both = await bothStores();
  await seedWorld(both);
});
afterEach(async () => both.close());

/** The link's n-th payment, `PL-lnk_1-<n>`, made at `atMs`. */
const linkPayment = (n: number, atMs: number) =>
  newPayment(n, { channel: "link", linkId: "lnk_1", partnerTxCode: `PL-lnk_1-${n}`, createdAtMs: atMs });

describe("product 22: link-checkout operations answer on PostgreSQL as on SQLite", () => {
  it("initiatedCodes, paymentCodes, latestCode and cardAttempts", async () => {
    const steps = async (o: Ops) => {
      const empty = [
        await o.linkCheckout.initiatedCodes("lnk_1"),
        await o.linkCheckout.paymentCodes("lnk_1"),
        await o.linkCheckout.latestCode("lnk_1"),
        await o.linkCheckout.cardAttempts("lnk_1"),
      ];
      // Same instant for 9 and 10: the code orders them (PL-lnk_1-10 before PL-lnk_1-9, byte order).
      for (const [n, at] of [
        [1, T0],
        [10, T0 + 5],
        [9, T0 + 5],
        [3, T0 + 2],
      ] as const)
        await o.payments.insert(linkPayment(n, at));
      await o.payments.insert(newPayment(50, { createdAtMs: T0 + 9 }));
      await o.payments.markFailed(linkPayment(1, 0).code, ["initiated"], T0 + 6);
      await o.attempts.insert({
        terminalId: null,
        connectionId: null,
        id: "att_1",
        paymentCode: linkPayment(1, 0).code,
        status: "declined",
        counted: true,
        createdAtMs: T0,
      });
      await o.attempts.insert({
        terminalId: null,
        connectionId: null,
        id: "att_2",
        paymentCode: linkPayment(3, 0).code,
        status: "starting",
        counted: false,
        createdAtMs: T0 + 2,
      });
      await o.attempts.insert({
        terminalId: null,
        connectionId: null,
        id: "att_3",
        paymentCode: newPayment(50).code,
        status: "starting",
        counted: false,
        createdAtMs: T0 + 9,
      });
      return [
        ...empty,
        await o.linkCheckout.initiatedCodes("lnk_1"),
        await o.linkCheckout.paymentCodes("lnk_1"),
        await o.linkCheckout.latestCode("lnk_1"),
        await o.linkCheckout.cardAttempts("lnk_1"),
      ];
    };
    const { sqlite, pg } = await onBoth(both, steps);
    expect(pg).toEqual(sqlite);
    const code = (n: number) => newPayment(n).code;
    expect(sqlite).toEqual([[], [], null, 0, [code(3), code(9), code(10)], [code(1), code(3), code(10), code(9)], code(10), 2]);
  });
});
