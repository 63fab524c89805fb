// Fault injection on the charging and refunding calls (oosTranData, reverse, return), chosen by the
// kuruş part of the amount: the attempt's amount for oosTranData, the order's for reverse, the
// return's own for return. The operation takes effect as if it had succeeded and then the answer
// misbehaves, except .92, where nothing is recorded. oosRequestData and the resolve never fault:
// they charge nothing.

/** Kuruş suffix -> what happens; kasa prints this in its sandbox banner. */
export const POSNET_SIM_FAULTS = {
  ".91": "no answer in time: the bank answers after 65 s (the operation is done)",
  ".92": "HTTP 500, nothing recorded",
  ".93": "HTTP 200 with an HTML error page instead of XML (the operation is done)",
  ".94": "HTTP 200 with garbage bytes (the operation is done)",
  ".95": "HTTP 200 with truncated XML (the operation is done)",
} as const satisfies Record<string, string>;

export type PosnetSimFault = keyof typeof POSNET_SIM_FAULTS;

export function faultOf(kurus: number | null): PosnetSimFault | null {
  if (kurus === null) return null;
  const suffix = `.${String(kurus % 100).padStart(2, "0")}`;
  return Object.hasOwn(POSNET_SIM_FAULTS, suffix) ? (suffix as PosnetSimFault) : null;
}
