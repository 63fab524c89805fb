/**
 * The bank's order id of an attempt (docs/banks-garanti.md, "Order id"): the attempt id with its
 * separator removed (`att-0ABC…` -> `att0ABC…`, 23 letters and digits), because Garanti's order
 * ids are proven only for letters and digits. The transform is reversed by putting the separator
 * back after `att`; kasa never needs to, since every callback URL names its attempt.
 */
export const orderIdOf = (attemptId: string): string => attemptId.replace(/^att[-_]/, "att");

/** Kuruş as Garanti writes them (`txnamount`, `Amount`): digits, no separator. */
export const toMinor = (kurus: number): string => {
  if (!Number.isSafeInteger(kurus) || kurus < 0) throw new RangeError("amount must be a non-negative safe integer");
  return String(kurus);
};

/** `txninstallmentcount` / `InstallmentCnt`: empty for a single charge, never "0" or "1". */
export const toInstallment = (installment: number): string => (installment > 1 ? String(installment) : "");

/** Plain digits as kuruş; null for anything else. */
export const fromMinor = (text: string | undefined | null): number | null =>
  text !== undefined && text !== null && /^\d{1,15}$/.test(text) ? Number(text) : null;
