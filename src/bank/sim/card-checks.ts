import type { CardInput } from "../gateway";

// Istanbul is UTC+3 all year (docs/contract.md, Identifiers and formats); a card is valid through the last day of its month there.
const ISTANBUL_OFFSET_MS = 3 * 60 * 60 * 1000;

const PAN_PATTERN = /^\d{12,19}$/;
const CVV_PATTERN = /^\d{3,4}$/;
const MONTH_PATTERN = /^(0[1-9]|1[0-2])$/;
const YEAR_PATTERN = /^\d{2}$/;

export const isLuhnValid = (digits: string): boolean => {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};

/** Months since year 0 in Istanbul, so expiry compares as one integer. */
const toIstanbulMonthIndex = (nowMs: number): number => {
  const local = new Date(nowMs + ISTANBUL_OFFSET_MS);
  return local.getUTCFullYear() * 12 + local.getUTCMonth();
};

/**
 * What a bank checks before 3D: a well-formed, Luhn-valid PAN, a 3-4 digit CVV and an expiry that
 * has not passed. The relay validates first (docs/checkout.md, Card data); this is the bank's own, second look.
 */
export const isCardAcceptable = (card: CardInput, nowMs: number): boolean => {
  const pan = card.pan.reveal();
  const month = card.expireMonth.reveal();
  const year = card.expireYear.reveal();
  if (!PAN_PATTERN.test(pan) || !isLuhnValid(pan) || !CVV_PATTERN.test(card.cv2.reveal())) return false;
  if (!MONTH_PATTERN.test(month) || !YEAR_PATTERN.test(year)) return false;
  const expiryIndex = (2000 + Number(year)) * 12 + (Number(month) - 1);
  return expiryIndex >= toIstanbulMonthIndex(nowMs);
};
