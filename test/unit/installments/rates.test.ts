import { describe, expect, it } from "vitest";
import { findRateConflict, isOnUs, pickRate } from "../../../src/domain/installments/rates";
import type { RateRow } from "../../../src/domain/installments/types";
import { BANK_A, cardOf, rate, type CardName } from "./fixtures";

// Every specificity for count 3; the rate names the row, so a failure says which row was picked.
const FULL: RateRow[] = [
  rate(3, 330), // generic
  rate(3, 340, { onUs: false }), // off-us, any brand
  rate(3, 320, { onUs: true }), // on-us, any brand
  rate(3, 310, { brand: "bonus" }), // bonus, any issuer
  rate(3, 305, { brand: "bonus", onUs: false }), // bonus, off-us
  rate(3, 300, { brand: "bonus", onUs: true }), // bonus, on-us
  rate(1, 199),
];

describe("product 16 rate rows: the most specific row wins (brand+onUs, brand, onUs, generic)", () => {
  it.each([
    ["bonus on-us card", "bonusA", 300],
    ["bonus card of another bank", "bonusUnknownBank", 305],
    ["world card of another bank", "worldB", 340],
    ["brand-less on-us credit card", "brandlessCreditA", 320],
    ["on-us debit card (brand-less)", "debitA", 320],
    ["unresolved BIN: brand-less and never on-us", "unresolved", 340],
  ] as const)("%s -> %i", (_name, card: CardName, expected) => {
    expect(pickRate(FULL, 3, cardOf(card), BANK_A)?.rateBps).toBe(expected);
  });

  it.each([
    ["brand beats on-us: bonus on-us card, no brand+onUs row", [rate(3, 320, { onUs: true }), rate(3, 310, { brand: "bonus" })], 310],
    ["on-us beats generic", [rate(3, 330), rate(3, 320, { onUs: true })], 320],
    ["an off-us row does not outrank generic for an on-us card", [rate(3, 330), rate(3, 340, { onUs: false })], 330],
    ["generic when nothing else applies", [rate(3, 330), rate(3, 310, { brand: "world" })], 330],
    ["row order does not matter", [rate(3, 300, { brand: "bonus", onUs: true }), rate(3, 330)], 300],
  ] as const)("%s", (_name, rows, expected) => {
    expect(pickRate(rows, 3, cardOf("bonusA"), BANK_A)?.rateBps).toBe(expected);
  });
});

describe("product 16 rate rows: rows that never apply", () => {
  it.each([
    ["an on-us row to an off-us card", [rate(3, 320, { onUs: true })], "worldB", BANK_A],
    ["an on-us row to a card whose issuer is unknown", [rate(3, 320, { onUs: true })], "bonusUnknownBank", BANK_A],
    ["an on-us row when the terminal has no bank", [rate(3, 320, { onUs: true })], "bonusA", null],
    ["an on-us row to an unresolved BIN", [rate(3, 320, { onUs: true })], "unresolved", BANK_A],
    ["an off-us row to an on-us card", [rate(3, 340, { onUs: false })], "bonusA", BANK_A],
    ["a brand row to another brand", [rate(3, 310, { brand: "bonus" })], "worldB", BANK_A],
    ["a brand row to a brand-less card", [rate(3, 310, { brand: "bonus" })], "debitA", BANK_A],
    ["a brand row to an unresolved BIN", [rate(3, 310, { brand: "bonus" })], "unresolved", BANK_A],
    ["a row of another count", [rate(6, 600)], "bonusA", BANK_A],
  ] as const)("%s", (_name, rows, card: CardName, terminalBank) => {
    expect(pickRate(rows, 3, cardOf(card), terminalBank)).toBeNull();
  });
});

describe("product 16 rate rows: onUs false is the complement of onUs true", () => {
  // Decision (rates.ts): false = not proven on-us, so one true row and one false row price every card.
  const split = [rate(1, 150, { onUs: true }), rate(1, 250, { onUs: false })];
  it.each([
    ["on-us card", "bonusA", BANK_A, 150],
    ["card of another bank", "worldB", BANK_A, 250],
    ["card whose issuer is unknown", "bonusUnknownBank", BANK_A, 250],
    ["unresolved BIN", "unresolved", BANK_A, 250],
    ["any card at a terminal without a bank", "bonusA", null, 250],
  ] as const)("%s -> %i", (_name, card: CardName, terminalBank, expected) => {
    expect(pickRate(split, 1, cardOf(card), terminalBank)?.rateBps).toBe(expected);
  });

  it.each([
    ["same bank", "bonusA", BANK_A, true],
    ["other bank", "worldB", BANK_A, false],
    ["card bank unknown", "bonusUnknownBank", BANK_A, false],
    ["terminal bank unknown", "bonusA", null, false],
    ["unresolved BIN", "unresolved", BANK_A, false],
    ["names compare exactly", "bonusA", "demo bank a", false],
  ] as const)("isOnUs: %s -> %s", (_name, card: CardName, terminalBank, expected) => {
    expect(isOnUs(cardOf(card), terminalBank)).toBe(expected);
  });
});

describe("product 16 rate rows: duplicate keys leave the winner undefined", () => {
  it.each([
    ["no duplicates", [rate(1, 199), rate(1, 150, { onUs: true }), rate(1, 140, { onUs: false })], null],
    ["same count, brand, onUs", [rate(3, 450), rate(1, 199), rate(3, 460)], 460],
    ["same brand+onUs key", [rate(3, 300, { brand: "bonus", onUs: true }), rate(3, 301, { brand: "bonus", onUs: true })], 301],
  ] as const)("%s", (_name, rows, conflictRate) => {
    expect(findRateConflict(rows)?.rateBps ?? null).toBe(conflictRate);
  });

  it("pickRate still answers with the first of tied rows", () => {
    expect(pickRate([rate(3, 450), rate(3, 460)], 3, cardOf("worldB"), BANK_A)?.rateBps).toBe(450);
  });
});
