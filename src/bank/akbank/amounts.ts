// Amounts on the AkbankPos wire: lira with a dot and two decimals (`1234.56`), as a string in the
// form and the request bodies; a JSON number in order-history rows. Integer kuruş in kasa, string
// arithmetic both ways: never a float. (Kuruş to lira is src/lira.ts.)

/** `1`, `1.5`, `1.50` -> kuruş; null for anything else. */
export function fromLira(text: string): number | null {
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}

/** A history row's JSON number amount (`10`, `10.5`, `10.91`) -> kuruş, through its decimal text. */
export const fromAmountNumber = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? fromLira(value.toFixed(2)) : null;

/** `installCount`: 1 for a single charge, never 0 or empty. */
export const toInstallCount = (installment: number): number => (installment > 1 ? installment : 1);
