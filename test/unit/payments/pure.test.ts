import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { withResult } from "../../../src/domain/payments/callback";
import { parseCardForm } from "../../../src/domain/payments/card-form";
import { ATTEMPT_TRANSITIONS, HOLDING_STATUSES, PAYMENT_STATUSES, PAYMENT_TRANSITIONS } from "../../../src/domain/payments/machine";
import { toCaptureFacts } from "../../../src/domain/payments/transitions";
import type { TerminalRow } from "../../../src/store/rows";
import type { PaymentRow } from "../../../src/store/rows-money";

const T0 = Date.parse("2026-11-20T09:00:00.000Z");

describe("interface 3.2 / product 5 the payment machine as data", () => {
  it("the held codes are every state except failed and expired, as the partial unique index says", () => {
    expect([...HOLDING_STATUSES].sort()).toEqual(PAYMENT_STATUSES.filter((s) => s !== "failed" && s !== "expired").sort());
    const schema = readFileSync(new URL("../../../schema.sql", import.meta.url), "utf8");
    expect(schema).toMatch(
      /payments_active_tx_code ON payments\(partner_id, partner_tx_code\)\s+WHERE status NOT IN \('failed', 'expired'\)/,
    );
  });

  it("every payment transition leaves initiated only; nothing leaves captured here (refunds do that)", () => {
    for (const t of Object.values(PAYMENT_TRANSITIONS)) for (const from of t.from) expect(from).toBe("initiated");
  });

  it("a callback can close an attempt only from acs, so a replay finds nothing to close", () => {
    expect(ATTEMPT_TRANSITIONS.authenticate.from).toEqual(["acs"]);
    expect(ATTEMPT_TRANSITIONS.rejectAuthentication.from).toEqual(["acs"]);
    expect(ATTEMPT_TRANSITIONS.capture.from).toEqual(["capturing"]);
  });
});

describe("product 6.4 withResult: ?paymentCode=…&status=… appended to returnUrl", () => {
  it.each([
    ["https://s.example/done", "https://s.example/done?paymentCode=pay_1&status=captured"],
    ["https://s.example/done?a=1", "https://s.example/done?a=1&paymentCode=pay_1&status=captured"],
    ["https://s.example/done?q=a+b&r=%2F", "https://s.example/done?q=a+b&r=%2F&paymentCode=pay_1&status=captured"],
    ["https://s.example/p#frag", "https://s.example/p?paymentCode=pay_1&status=captured#frag"],
    ["https://s.example:8443/", "https://s.example:8443/?paymentCode=pay_1&status=captured"],
  ])("%s", (url, expected) => {
    expect(withResult(url, "pay_1", "captured")).toBe(expected);
  });
});

describe("product 6.1 card form", () => {
  const good = { paymentRef: "ref_1", pan: "4000001100000009", expireMonth: "12", expireYear: "34", cv2: "857" };

  it("wraps every card field as Sensitive and keeps the 8-digit BIN for the lookup", () => {
    const r = parseCardForm(good, T0);
    if (!r.ok) throw new Error("should parse");
    expect(r.value.bin8).toBe("40000011");
    expect(JSON.stringify(r.value)).not.toContain("4000001100000009");
    expect(JSON.stringify(r.value)).not.toContain("857");
    expect(r.value.card.pan.reveal()).toBe("4000001100000009");
  });

  it.each([
    [{ pan: "4000001100000008" }, "pan"],
    [{ pan: "400000110000000" + "9".repeat(5) }, "pan"],
    [{ expireMonth: "00" }, "expiry"],
    [{ expireMonth: "10", expireYear: "26" }, "expiry"],
    [{ expireYear: "" }, "expiry"],
    [{ cv2: "85" }, "cv2"],
    [{ cv2: undefined }, "cv2"],
  ])("%o is refused as %s", (over, problem) => {
    expect(parseCardForm({ ...good, ...over } as Record<string, string>, T0)).toEqual({ ok: false, problem });
  });

  it("the current Istanbul month is still valid; it turns at 00:00 Istanbul on the 1st", () => {
    const card = { ...good, expireMonth: "11", expireYear: "26" };
    expect(parseCardForm(card, Date.parse("2026-11-30T20:59:59.999Z")).ok).toBe(true);
    expect(parseCardForm(card, Date.parse("2026-11-30T21:00:00.000Z")).ok).toBe(false);
  });

  it("a 4-digit CVV and a 13- or 19-digit PAN are accepted", () => {
    expect(parseCardForm({ ...good, cv2: "1234" }, T0).ok).toBe(true);
    expect(parseCardForm({ ...good, pan: "4222222222222" }, T0).ok).toBe(true);
  });
});

describe("product 5 toCaptureFacts", () => {
  const terminal = { commissionBasis: "gross", valueDays: 1, valueDaysByCount: { "6": 3 } } as unknown as TerminalRow;
  const payment = {
    code: "pay_1",
    amount: 10_500,
    principal: 10_000,
    installment: 1,
    appliedRateBps: 250,
    appliedFixedFee: 30,
  } as PaymentRow;
  const bank = { bankReference: "b", authCode: "a" };

  it("gross: on the charged amount", () => {
    expect(toCaptureFacts(payment, terminal, bank, T0)).toMatchObject({
      commissionAmount: 293,
      netToPartner: 10_207,
      expectedValueDate: "2026-11-21",
    });
  });

  it("net: on the principal", () => {
    const net = { ...terminal, commissionBasis: "net" } as TerminalRow;
    expect(toCaptureFacts(payment, net, bank, T0)).toMatchObject({ commissionAmount: 280, netToPartner: 10_220 });
  });

  it("value days by count override the default", () => {
    expect(toCaptureFacts({ ...payment, installment: 6 }, terminal, bank, T0).expectedValueDate).toBe("2026-11-23");
  });

  it("a payment without a fixed rate is our bug, not a partner's error", () => {
    expect(() => toCaptureFacts({ ...payment, appliedRateBps: null }, terminal, bank, T0)).toThrow(/without a rate/);
  });
});
