import { POSNET_SIM_ACCOUNT } from "./accounts";

/** Where kasa serves the Posnet simulator (sandbox, and tests that ask for it): the bank's own paths. */
export const POSNET_SIM_PATHS = {
  api: "/sim-posnet/PosnetWebService/XML",
  gate: "/sim-posnet/3DSWebService/YKBPaymentService",
  calls: "/sim-posnet/calls",
} as const;

/** The seed object of a Posnet connection to the simulator that kasa serves at `baseUrl` (sandbox, tests). */
export const posnetSimulatorSettings = (baseUrl: string, timeoutMs: number) => ({
  apiUrl: `${baseUrl}${POSNET_SIM_PATHS.api}`,
  gateUrl: `${baseUrl}${POSNET_SIM_PATHS.gate}`,
  merchantId: POSNET_SIM_ACCOUNT.merchantId,
  terminalId: POSNET_SIM_ACCOUNT.terminalId,
  posnetId: POSNET_SIM_ACCOUNT.posnetId,
  encKey: POSNET_SIM_ACCOUNT.encKey,
  lang: "tr" as const,
  timeoutMs,
});
