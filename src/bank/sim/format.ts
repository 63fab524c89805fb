/**
 * Display helpers for the ACS page. Local on purpose: the bank must not depend on kasa's views.
 */

/** `123456` kuruş -> `1.234,56 TL` (Turkish grouping and decimal comma). */
export const formatTry = (amountMinor: number): string => {
  const sign = amountMinor < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(amountMinor));
  const lira = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  const kurus = (abs % 100).toString().padStart(2, "0");
  return `${sign}${lira},${kurus} TL`;
};

/** First 6 + `******` + last 4 (docs/contract.md#payments `maskedPan`); null for anything that is not a PAN. */
export const maskPan = (pan: string): string | null => (/^\d{12,19}$/.test(pan) ? `${pan.slice(0, 6)}******${pan.slice(-4)}` : null);
