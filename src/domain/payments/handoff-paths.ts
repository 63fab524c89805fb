/** Where the relay lives under the public base URL (docs/contract.md#create-a-payment `handoffUrl`, docs/checkout.md, Card data / The callback). */
export const HANDOFF_PATHS = {
  start: "/handoff",
  /** `{callback}/{attemptId}`: the ACS posts the signed result here. */
  callback: "/handoff/callback",
} as const;

export const handoffUrlOf = (baseUrl: string): string => `${baseUrl}${HANDOFF_PATHS.start}`;

export const callbackUrlOf = (baseUrl: string, attemptId: string): string =>
  `${baseUrl}${HANDOFF_PATHS.callback}/${encodeURIComponent(attemptId)}`;
