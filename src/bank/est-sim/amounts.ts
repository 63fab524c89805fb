// EST amounts are lira with a dot ("1", "1.5", "1.50"); the simulator keeps integer kuruş. The
// conversion is string arithmetic on the digits, never a float.

const LIRA = /^(\d{1,12})(?:\.(\d{1,2}))?$/;

/** Integer kuruş of a lira amount, or null when it is not `digits[.d[d]]`. */
export function liraToKurus(text: string): number | null {
  const match = LIRA.exec(text);
  if (!match) return null;
  const whole = Number.parseInt(match[1] as string, 10);
  const fraction = Number.parseInt((match[2] ?? "").padEnd(2, "0"), 10);
  return whole * 100 + fraction;
}

/** 123456 -> "1234.56". */
export const kurusToLira = (kurus: number): string => `${Math.trunc(kurus / 100)}.${String(kurus % 100).padStart(2, "0")}`;
