/** The bank's order id of an attempt: its letters and digits (`att_` dropped; banks take [A-Za-z0-9-]). */
export const oidOf = (attemptId: string): string => attemptId.replace(/^att_/, "");
