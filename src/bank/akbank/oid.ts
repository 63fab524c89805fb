/**
 * The bank's order id of an attempt: the attempt id itself (`att-` and 20 letters and digits, 24
 * characters, within AkbankPos's observed `[A-Za-z0-9-]`, at most 36). An attempt written before
 * schema 5 (`att_…`) gets a hyphen, the one character its order ids take besides letters and digits.
 */
export const oidOf = (attemptId: string): string => attemptId.replace(/^att_/, "att-");
