// Amounts on the EST wire: lira with a dot and two decimals (`1234.56`) in forms and CC5Request
// (est.md 4.3), minor units (`123456`) in ORDERSTATUS / ORDERHISTORY answers. Integer kuruş
// in kasa, string arithmetic both ways: never a float.

// Kuruş to lira is src/lira.ts: the payout export writes lira the same way.

/** `1`, `1.5`, `1.50` -> kuruş; null for anything else. */
export function fromLira(text: string): number | null {
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/** Minor units as EST's status answers write them; null unless plain digits. */
export const fromMinor = (text: string | undefined): number | null => (text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : null);

/** `taksit`: empty for a single charge, "0" is not valid (est.md 1.2). */
export const toTaksit = (installment: number): string => (installment > 1 ? String(installment) : "");
