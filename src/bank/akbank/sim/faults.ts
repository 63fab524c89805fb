// Fault injection on the simulated API (sale 1000, void 1003, refund 1002), chosen by the kuruş
// part of the amount: the sale's or refund's amount, the order's for a void. The operation takes
// effect and then the answer misbehaves, except .92, where nothing is recorded.

/** Kuruş suffix -> what happens; kasa prints this in its sandbox banner. */
export const AKBANK_SIM_FAULTS = {
  ".91": "no answer in time: the bank answers after 65 s (the operation is done)",
  ".92": "HTTP 500, nothing recorded",
  ".93": "HTTP 200 with an HTML error page instead of JSON (the operation is done)",
  ".94": "HTTP 200 with garbage bytes (the operation is done)",
  ".95": "HTTP 200 with truncated JSON (the operation is done)",
  ".96": "3d_pay gate: approved, then the buyer never comes back (no callback)",
} as const satisfies Record<string, string>;

export type AkbankSimFault = keyof typeof AKBANK_SIM_FAULTS;

export function faultOf(kurus: number | null): AkbankSimFault | null {
  if (kurus === null) return null;
  const suffix = `.${String(kurus % 100).padStart(2, "0")}`;
  return Object.hasOwn(AKBANK_SIM_FAULTS, suffix) ? (suffix as AkbankSimFault) : null;
}
