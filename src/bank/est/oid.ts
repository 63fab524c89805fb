/**
 * The bank's order id of an attempt (docs/banks.md: the attempt's id is the bank `oid`). Attempt ids
 * are `att-` and 20 letters and digits, which EST takes as they are; one written before schema 5
 * (`att_…`) gets a hyphen, the one character EST order ids take besides letters and digits.
 */
export const oidOf = (attemptId: string): string => attemptId.replace(/^att_/, "att-");
