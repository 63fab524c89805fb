import { afterEach, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../src/limits";
import { OTHER_KEY } from "../support/fixtures";
import { harness, T0, type Harness } from "../support/harness";
import { capturedPayment, createPayment, linkPaymentOf, pay, paymentCount, paymentRow } from "./payments-flow";

let h: Harness;
afterEach(async () => h?.close());

const FIRST = { partnerTxCode: "order-1", terminalId: "T-1", amount: 10_000, installment: 1 } as const;

/** A link payment (channel link, `PL-<id>-<n>`), made as the link pages will make it. */
async function linkPayment(h: Harness): Promise<{ code: string; partnerTxCode: string }> {
  const p = await linkPaymentOf(h);
  return { code: p.code, partnerTxCode: p.partnerTxCode };
}

describe("interface 4.5 idempotency table", () => {
  it("first create: 201, idempotentReplay false", async () => {
    h = await harness();
    const r = await createPayment(h, FIRST);
    expect([r.status, r.json.idempotentReplay, r.json.status]).toEqual([201, false, "initiated"]);
  });

  it("same partnerTxCode, same request: 200, idempotentReplay true, same paymentCode and paymentRef, no new record", async () => {
    h = await harness();
    const first = await createPayment(h, FIRST);
    const again = await createPayment(h, FIRST);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ ...first.json, idempotentReplay: true });
    expect(await paymentCount(h)).toBe(1);
  });

  it("same partnerTxCode, same request: status shows the current state", async () => {
    h = await harness();
    const code = await capturedPayment(h, FIRST);
    const again = await createPayment(h, FIRST);
    expect(again.json).toMatchObject({ paymentCode: code, status: "captured", idempotentReplay: true });
  });

  it.each([
    ["terminalId", { terminalId: "T-NET" }],
    ["amount", { amount: 10_001 }],
    ["installment", { installment: 3 }],
  ])("same partnerTxCode, different %s: 409 duplicate_partner_tx_code", async (_n, change) => {
    h = await harness();
    await createPayment(h, FIRST);
    const r = await createPayment(h, { ...FIRST, ...change });
    expect([r.status, r.json.error.code]).toEqual([409, "duplicate_partner_tx_code"]);
    expect(await paymentCount(h)).toBe(1);
  });

  it.each([
    ["returnUrl", { returnUrl: "https://shop.example/elsewhere" }],
    ["description", { description: "other text" }],
    ["installment null vs 1 (the default)", { installment: null }],
  ])("%s is not compared: still a replay", async (_n, change) => {
    h = await harness();
    const first = await createPayment(h, FIRST);
    const r = await createPayment(h, { ...FIRST, ...change });
    expect([r.status, r.json.paymentCode]).toEqual([200, first.json.paymentCode]);
  });
});

describe("interface 4.5 idempotency boundaries", () => {
  it("1. a failed payment frees the code: 201, a new payment", async () => {
    h = await harness();
    const first = await createPayment(h, FIRST);
    await pay(h, first.json.paymentRef, "4000008800000007");
    expect((await paymentRow(h, first.json.paymentCode)).status).toBe("failed");
    const again = await createPayment(h, FIRST);
    expect(again.status).toBe(201);
    expect(again.json.paymentCode).not.toBe(first.json.paymentCode);
    expect(again.json.paymentRef).not.toBe(first.json.paymentRef);
  });

  it("1. an expired payment frees the code: 201", async () => {
    h = await harness();
    const first = await createPayment(h, FIRST);
    await h.advance(30 * MINUTE_MS);
    expect((await paymentRow(h, first.json.paymentCode)).status).toBe("expired");
    expect((await createPayment(h, { ...FIRST, amount: 5 })).status).toBe(201);
  });

  it("1. at expiresAt exactly the code is free even before the timer ran (product 16: now >= expiresAt)", async () => {
    h = await harness();
    const first = await createPayment(h, FIRST);
    h.clock.set(T0 + 30 * MINUTE_MS - 1);
    expect((await createPayment(h, FIRST)).status).toBe(200);
    h.clock.set(T0 + 30 * MINUTE_MS);
    const again = await createPayment(h, FIRST);
    expect(again.status).toBe(201);
    expect((await paymentRow(h, first.json.paymentCode)).status).toBe("expired");
  });

  it("2. replay is scoped to the interface: a panel payment with the same code and request is 409", async () => {
    h = await harness();
    await h.store.write(
      async (tx) =>
        await tx.payments.insert({
          code: "pay_panel0000000000000000",
          partnerId: "ptn_test",
          terminalId: "T-1",
          connectionId: "vpos-1",
          partnerTxCode: FIRST.partnerTxCode,
          channel: "panel",
          linkId: null,
          amount: FIRST.amount,
          principal: FIRST.amount,
          currency: "TRY",
          installment: 1,
          description: null,
          returnUrl: null,
          paymentRef: "ref_panel",
          expiresAtMs: T0 + 30 * MINUTE_MS,
          createdAtMs: T0,
        }),
    );
    const r = await createPayment(h, FIRST);
    expect([r.status, r.json.error.code]).toEqual([409, "duplicate_partner_tx_code"]);
  });

  it("3. a PL- code of an active link payment is 409, even with the same request", async () => {
    h = await harness();
    const link = await linkPayment(h);
    expect(link.partnerTxCode).toMatch(/^PL-pl_[0-9a-z]{20}-1$/);
    const r = await createPayment(h, { ...FIRST, partnerTxCode: link.partnerTxCode });
    expect([r.status, r.json.error.code]).toEqual([409, "duplicate_partner_tx_code"]);
  });

  it("3. once that link payment is no longer active, its PL- code is free", async () => {
    h = await harness();
    const link = await linkPayment(h);
    await h.advance(30 * MINUTE_MS);
    expect((await paymentRow(h, link.code)).status).toBe("expired");
    expect((await createPayment(h, { ...FIRST, partnerTxCode: link.partnerTxCode })).status).toBe(201);
  });

  it("another partner's identical code is unrelated (product 16)", async () => {
    h = await harness();
    await createPayment(h, FIRST);
    const r = await createPayment(h, { ...FIRST, terminalId: "T-OTHER" }, OTHER_KEY);
    expect([r.status, r.json.idempotentReplay]).toEqual([201, false]);
  });
});

describe("interface 4.5 concurrency: one immediate transaction for check and insert", () => {
  it("20 simultaneous identical creates: exactly one 201, the rest 200 replays of it", async () => {
    h = await harness();
    const replies = await Promise.all(Array.from({ length: 20 }, () => createPayment(h, FIRST)));
    const created = replies.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(19);
    expect(new Set(replies.map((r) => r.json.paymentCode))).toEqual(new Set([created[0]!.json.paymentCode]));
    expect(await paymentCount(h)).toBe(1);
  });

  it("20 simultaneous creates with two different requests: one payment, the rest 200 or 409 by the tuple", async () => {
    h = await harness();
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createPayment(h, { ...FIRST, amount: i % 2 === 0 ? 10_000 : 20_000 })),
    );
    const created = replies.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    const winner = await paymentRow(h, created[0]!.json.paymentCode);
    replies.forEach((r, i) => {
      if (r === created[0]) return;
      const same = (i % 2 === 0 ? 10_000 : 20_000) === winner.amount;
      expect(r.status).toBe(same ? 200 : 409);
    });
    expect(await paymentCount(h)).toBe(1);
  });

  it("the partial unique index refuses a second active payment with one code (the backstop)", async () => {
    h = await harness();
    const first = await createPayment(h, FIRST);
    const row = await paymentRow(h, first.json.paymentCode);
    await expect(
      h.store.write(async (tx) => await tx.payments.insert({ ...row, code: "pay_dup00000000000000000", paymentRef: "ref_dup" })),
    ).rejects.toThrow(/UNIQUE/i);
  });
});
