/** Where the relay lives under the public base URL (interface 4.5 `handoffUrl`, product 6.1, 6.4). */
export const HANDOFF_PATHS = {
  start: "/handoff",
  /** `{callback}/{attemptId}`: the ACS posts the signed result here. */
  callback: "/handoff/callback",
} as const;

export const handoffUrlOf = (baseUrl: string): string => `${baseUrl}${HANDOFF_PATHS.start}`;

export const callbackUrlOf = (baseUrl: string, attemptId: string): string =>
  `${baseUrl}${HANDOFF_PATHS.callback}/${encodeURIComponent(attemptId)}`;
