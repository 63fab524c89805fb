// Fault injection on the API (Auth, Void, Credit), chosen by the kuruş part of the amount: `Total`
// for Auth and Credit, the order's amount for Void. The operation takes effect as if it had
// succeeded (the order is authorised, voided or credited) and then the answer misbehaves, except
// .92, where nothing is recorded. A 3D payment for 10.91 TL then an Auth therefore exercises the
// merchant's "unknown outcome" path.
//
//   .91  the XML answer arrives after `slowMs` (65 s by default: past a client's timeout)
//   .92  HTTP 500 text/plain, nothing recorded
//   .93  HTTP 200 with an HTML page instead of XML
//   .94  HTTP 200 with garbage bytes
//   .95  HTTP 200 with the valid XML cut in the middle
//   .96  at a 3d_pay gate: the order is approved, then the buyer is sent nowhere (the window
//        closed): the signed callback never comes, so only asking the bank finds the charge

/** Kuruş suffix -> what happens; kasa prints this in its sandbox banner. */
export const EST_SIM_FAULTS = {
  ".91": "no answer in time: the bank answers after 65 s (the operation is done)",
  ".92": "HTTP 500, nothing recorded",
  ".93": "HTTP 200 with an HTML error page instead of XML (the operation is done)",
  ".94": "HTTP 200 with garbage bytes (the operation is done)",
  ".95": "HTTP 200 with truncated XML (the operation is done)",
  ".96": "3d_pay gate: approved, then the buyer never comes back (no callback)",
} as const satisfies Record<string, string>;

export type EstSimFault = keyof typeof EST_SIM_FAULTS;

export function faultOf(kurus: number | null): EstSimFault | null {
  if (kurus === null) return null;
  const suffix = `.${String(kurus % 100).padStart(2, "0")}`;
  return Object.hasOwn(EST_SIM_FAULTS, suffix) ? (suffix as EstSimFault) : null;
}
