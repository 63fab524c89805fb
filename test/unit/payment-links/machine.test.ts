import { describe, expect, it } from "vitest";
import {
  CANCEL_REFUSALS,
  cancelRefusalOf,
  isOpenLinkStatus,
  LINK_EVENTS,
  LINK_STATUSES,
  LINK_TRANSITIONS,
  nextLinkStatus,
  TERMINAL_LINK_STATUSES,
  type LinkEvent,
} from "../../../src/domain/payment-links/machine";
import { expectedLinkStatus as expected } from "./fixtures";

describe("interface 3.1 payment link machine: every (state, event) pair", () => {
  const pairs = LINK_STATUSES.flatMap((state) => LINK_EVENTS.map((event) => [state, event] as const));

  it("covers 7 states x 7 events", () => {
    expect(LINK_STATUSES).toHaveLength(7);
    expect([...LINK_EVENTS].sort()).toEqual(["attempt-fail", "attempt-start", "cancel", "complete", "create", "expire", "open"]);
    expect(pairs).toHaveLength(49);
  });

  it.each(pairs)("%s + %s", (state, event) => {
    expect(nextLinkStatus(state, event)).toBe(expected(state, event));
  });

  it("create has no source state: a link starts pending", () => {
    expect(LINK_TRANSITIONS.create).toEqual({ from: [], to: "pending" });
  });
});

describe("interface 3.1 terminal states", () => {
  it.each(TERMINAL_LINK_STATUSES.map((s) => [s]))("%s has no way out", (state) => {
    expect(LINK_EVENTS.map((e) => nextLinkStatus(state, e))).toEqual(LINK_EVENTS.map(() => null));
    expect(isOpenLinkStatus(state)).toBe(false);
  });

  it("failed is not terminal: it can be paid, retried, expired or cancelled", () => {
    expect(isOpenLinkStatus("failed")).toBe(true);
    expect(["attempt-start", "complete", "expire", "cancel"].map((e) => nextLinkStatus("failed", e as LinkEvent))).toEqual([
      "initiated",
      "completed",
      "expired",
      "cancelled",
    ]);
  });

  it("no new attempt can start while initiated", () => {
    expect(nextLinkStatus("initiated", "attempt-start")).toBeNull();
  });
});

describe("interface 3.1 last row: DELETE in a terminal state answers 409", () => {
  it.each([
    ["completed", "payment_link_already_paid"],
    ["expired", "payment_link_expired"],
    ["cancelled", "payment_link_cancelled"],
  ] as const)("%s -> %s", (state, code) => {
    expect(cancelRefusalOf(state)).toBe(code);
    expect(CANCEL_REFUSALS[state]).toBe(code);
  });

  it.each(LINK_TRANSITIONS.cancel.from.map((s) => [s]))("%s is cancellable, so it has no refusal", (state) => {
    expect(cancelRefusalOf(state)).toBeNull();
  });
});
