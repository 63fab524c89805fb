// Fault injection on the API (sales, void, refund), chosen by the kuruş part of the amount: the
// sale's amount for sales and void, the refund's for refund. The operation takes effect as if it
// had succeeded and then the answer misbehaves, except .92, where nothing is recorded. `orderinq`
// and `orderhistoryinq` stay healthy, so an unknown outcome can be resolved by asking.

/** Kuruş suffix -> what happens; kasa prints this in its sandbox banner. */
export const GARANTI_SIM_FAULTS = {
  ".91": "no answer in time: the bank answers after 65 s (the operation is done)",
  ".92": "HTTP 500, nothing recorded",
  ".93": "HTTP 200 with an HTML error page instead of XML (the operation is done)",
  ".94": "HTTP 200 with garbage bytes (the operation is done)",
  ".95": "HTTP 200 with the XML cut inside <Response> (the operation is done)",
  ".96": "3d_pay gate: approved, then the buyer never comes back (no callback)",
} as const satisfies Record<string, string>;

export type GarantiSimFault = keyof typeof GARANTI_SIM_FAULTS;

export function faultOf(kurus: number | null): GarantiSimFault | null {
  if (kurus === null) return null;
  const suffix = `.${String(kurus % 100).padStart(2, "0")}`;
  return Object.hasOwn(GARANTI_SIM_FAULTS, suffix) ? (suffix as GarantiSimFault) : null;
}
