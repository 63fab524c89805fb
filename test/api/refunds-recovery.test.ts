import { describe, expect, it } from "vitest";
import type { ManualClock } from "../../src/clock";
import { TEST_SEED } from "../support/fixtures";
import { capture, kasaProcess, type KasaProcess } from "../support/kasa-process";
import { useRestartRig } from "../support/restart-rig";
import type { RefundMethod } from "../../src/store/rows-money";

// DESIGN request flow 3 / product 9: the bank is called between two units of work. A process that
// stops in between leaves a pending refund; the next start resolves it through the "refund-check"
// timer (bank.refundStatus, or the request again when the bank's answer was never recorded):
// never a lost refund, never a doubled one.

let path: string;
let clock: ManualClock;
const rig = useRestartRig<KasaProcess>("kasa-refunds-", (files) => ({ path, clock } = files));

const start = async (seed = false): Promise<KasaProcess> =>
  rig.track(await kasaProcess({ path, clock, seed: seed ? TEST_SEED : undefined }));
const stop = rig.stop;

const refundEvents = async (p: KasaProcess, pay: string): Promise<string[]> =>
  (await p.store.q.webhooks.list({ partnerId: null, status: null, limit: 10_000 }))
    .map((d) => JSON.parse(d.body) as { type: string; paymentCode?: string })
    .filter((b) => b.paymentCode === pay && b.type.startsWith("refund."))
    .map((b) => b.type);

/** What the first unit of a refund leaves behind when the process stops before the bank answered. */
async function crashAfterReserve(p: KasaProcess, pay: string, method: RefundMethod, amount: number): Promise<string> {
  const id = p.deps.ids.refundId();
  await p.store.write(
    async (tx) =>
      await tx.refunds.insertPending({
        id,
        paymentCode: pay,
        partnerId: "ptn_test",
        partnerRefundCode: `crash-${id}`,
        method,
        amount,
        createdAtMs: clock.nowMs(),
      }),
  );
  return id;
}

describe("product 9: a refund left pending by a stopped process is resolved at the next start", () => {
  it.each([
    ["credit", 4_000, "4000001100000009", "approved", "captured", 4_000],
    ["void", 10_000, "4000001100000009", "approved", "voided", 10_000],
    ["credit", 10_000, "4000001500000005", "declined", "captured", 0],
  ] as const)(
    "%s of %i (card %s) whose answer was never recorded -> %s, payment %s, refunded %i, once",
    async (method, amount, pan, status, paymentStatus, refunded) => {
      const first = await start(true);
      const pay = await capture(first, { amount: 10_000, pan });
      const id = await crashAfterReserve(first, pay, method, amount);
      await stop(first);

      const second = await start();
      await second.runDue();
      expect(await second.store.q.refunds.get(id)).toMatchObject({ status, procReturnCode: status === "approved" ? "00" : "05" });
      expect(await second.store.q.payments.get(pay)).toMatchObject({ status: paymentStatus, refundedAmount: refunded });
      expect(await refundEvents(second, pay)).toEqual([`refund.${status}`]);
      const record = (await second.get(`/v1/payments/${pay}/refunds/${id}`)).json;
      expect(record.status).toBe(status);
      await stop(second);

      // Another start finds nothing pending: nothing is asked or recorded twice.
      const third = await start();
      await third.advance(120_000);
      expect((await third.store.q.payments.get(pay))?.refundedAmount).toBe(refunded);
      expect(await refundEvents(third, pay)).toEqual([`refund.${status}`]);
    },
  );

  it("a refund the bank holds pending (card 5400001300000000) survives a restart and is approved at the bank's time", async () => {
    const first = await start(true);
    const pay = await capture(first, { amount: 10_000, pan: "5400001300000000" });
    const res = await first.post(`/v1/payments/${pay}/refunds/credit`, { amount: 2_500, partnerRefundCode: "SLOW-1" });
    expect(res.json.status).toBe("pending");
    const reference = (await first.store.q.refunds.get(res.json.refundId))?.bankReference;
    expect(reference).toMatch(/^SIMRF-/);
    await first.advance(10_000);
    await stop(first);

    const second = await start();
    await second.runDue();
    expect((await second.store.q.refunds.get(res.json.refundId))?.status).toBe("pending");
    expect((await second.post(`/v1/payments/${pay}/refunds/credit`, { amount: 1, partnerRefundCode: "SLOW-2" })).json.error.code).toBe(
      "refund_in_progress",
    );
    await second.advance(50_000);
    expect(await second.store.q.refunds.get(res.json.refundId)).toMatchObject({ status: "approved", bankReference: reference });
    expect((await second.store.q.payments.get(pay))?.refundedAmount).toBe(2_500);
    expect(await refundEvents(second, pay)).toEqual(["refund.approved"]);
  });
});
