import { describe, expect, it } from "vitest";
import {
  WEBHOOK_EVENT_FAMILIES,
  WEBHOOK_EVENT_TYPES,
  buildEventBody,
  isWebhookEventType,
  toOccurredAt,
  type WebhookEventInput,
} from "../../../src/domain/webhooks/events";

const AT_MS = Date.UTC(2025, 2, 1, 9, 30, 0, 123);

describe("interface 6.1 event types", () => {
  it.each([
    ["payment.captured", "transaction"],
    ["payment.failed", "transaction"],
    ["payment.expired", "transaction"],
    ["refund.approved", "transaction"],
    ["refund.declined", "transaction"],
    ["payout.paid_out", "payout"],
    ["payout.failed", "payout"],
    ["payment_link.completed", "payment_link"],
    ["payment_link.expired", "payment_link"],
    ["webhook.test", "test"],
  ] as const)("%s belongs to the %s family", (type, family) => {
    expect(WEBHOOK_EVENT_FAMILIES[type]).toBe(family);
  });

  it("has exactly the ten types of the table", () => {
    expect(WEBHOOK_EVENT_TYPES).toHaveLength(10);
    expect(isWebhookEventType("payment.captured")).toBe(true);
    expect(isWebhookEventType("payment.authorized")).toBe(false);
    expect(isWebhookEventType("toString")).toBe(false);
  });
});

describe("interface 6.2 bodies", () => {
  it.each<[string, WebhookEventInput, string]>([
    [
      "transaction",
      { id: "evt_1", type: "payment.captured", occurredAtMs: AT_MS, paymentCode: "PAY123" },
      '{"id":"evt_1","type":"payment.captured","occurredAt":"2025-03-01T09:30:00.123Z","paymentCode":"PAY123"}',
    ],
    [
      "transaction (refund)",
      { id: "evt_2", type: "refund.declined", occurredAtMs: AT_MS, paymentCode: "PAY9" },
      '{"id":"evt_2","type":"refund.declined","occurredAt":"2025-03-01T09:30:00.123Z","paymentCode":"PAY9"}',
    ],
    [
      "payout",
      { id: "evt_3", type: "payout.paid_out", occurredAtMs: AT_MS, payoutBatchId: "pb_1", partnerId: "prt_1" },
      '{"id":"evt_3","type":"payout.paid_out","occurredAt":"2025-03-01T09:30:00.123Z","payoutBatchId":"pb_1","partnerId":"prt_1"}',
    ],
    [
      "payment link",
      { id: "evt_4", type: "payment_link.expired", occurredAtMs: AT_MS, paymentLinkId: "lnk_1" },
      '{"id":"evt_4","type":"payment_link.expired","occurredAt":"2025-03-01T09:30:00.123Z","paymentLinkId":"lnk_1"}',
    ],
    [
      "test",
      { id: "evt_5", type: "webhook.test", occurredAtMs: AT_MS },
      '{"id":"evt_5","type":"webhook.test","occurredAt":"2025-03-01T09:30:00.123Z"}',
    ],
  ])("%s family body is exact", (_family, input, expected) => {
    expect(buildEventBody(input)).toBe(expected);
  });

  it("is thin: fields outside 6.2 (amounts, card data) never reach the body", () => {
    const input = { id: "evt_1", type: "payment.captured", occurredAtMs: AT_MS, paymentCode: "P", amount: 100, pan: "4111" };
    expect(Object.keys(JSON.parse(buildEventBody(input as WebhookEventInput)))).toEqual(["id", "type", "occurredAt", "paymentCode"]);
  });

  it.each([
    [0, "1970-01-01T00:00:00.000Z"],
    [AT_MS, "2025-03-01T09:30:00.123Z"],
    [Date.UTC(2025, 11, 31, 23, 59, 59, 999), "2025-12-31T23:59:59.999Z"],
  ])("occurredAt of %i ms is ISO 8601 UTC with milliseconds: %s", (ms, iso) => {
    expect(toOccurredAt(ms)).toBe(iso);
  });

  it.each<[string, Partial<WebhookEventInput>]>([
    ["transaction without paymentCode", { type: "payment.failed" }],
    ["transaction with empty paymentCode", { type: "payment.failed", paymentCode: "" }],
    ["payout without partnerId", { type: "payout.failed", payoutBatchId: "pb_1" }],
    ["payout without payoutBatchId", { type: "payout.failed", partnerId: "prt_1" }],
    ["payment link without paymentLinkId", { type: "payment_link.completed" }],
    ["payout with a paymentCode", { type: "payout.paid_out", payoutBatchId: "pb", partnerId: "p", paymentCode: "X" }],
    ["payment link with a paymentCode", { type: "payment_link.completed", paymentLinkId: "l", paymentCode: "X" }],
    ["transaction with a paymentLinkId", { type: "payment.captured", paymentCode: "X", paymentLinkId: "l" }],
    ["test with a paymentCode", { type: "webhook.test", paymentCode: "X" }],
    ["unknown type", { type: "payment.authorized" as never }],
    ["empty id", { type: "webhook.test", id: "" }],
    ["fractional occurredAtMs", { type: "webhook.test", occurredAtMs: 1.5 }],
    ["negative occurredAtMs", { type: "webhook.test", occurredAtMs: -1 }],
    ["NaN occurredAtMs", { type: "webhook.test", occurredAtMs: Number.NaN }],
  ])("refuses %s", (_name, patch) => {
    const input = { id: "evt_1", occurredAtMs: AT_MS, ...patch } as WebhookEventInput;
    expect(() => buildEventBody(input)).toThrowError(/./);
  });
});
