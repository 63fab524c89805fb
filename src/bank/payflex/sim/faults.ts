// Fault injection on the VPOS Sale, chosen by the kuruş part of kasa's amount (the EST simulator's
// .91-.95). Each one but .94 approves the sale and then loses or spoils the answer, which exercises
// kasa's "unknown outcome" path: ask Search, never send again.

/** Kuruş suffix -> what happens; kasa prints this in its sandbox banner. */
export const PAYFLEX_SIM_FAULTS = {
  ".91": "Sale approved, the answer never comes in time",
  ".92": "Sale approved, HTTP 500",
  ".93": "Sale approved, the XML cut before <ResultCode>",
  ".94": "nothing recorded, an HTML 'Request Rejected' page",
  ".95": "Sale approved, HTTP 500, and Search answers 500 for 20 s",
} as const satisfies Record<string, string>;

export type PayflexSimFault = keyof typeof PAYFLEX_SIM_FAULTS;

export function faultOf(kurus: number | null): PayflexSimFault | null {
  if (kurus === null) return null;
  const suffix = `.${String(kurus % 100).padStart(2, "0")}`;
  return Object.hasOwn(PAYFLEX_SIM_FAULTS, suffix) ? (suffix as PayflexSimFault) : null;
}

/** How long Search fails after a .95 Sale. */
export const SEARCH_DOWN_MS = 20_000;
