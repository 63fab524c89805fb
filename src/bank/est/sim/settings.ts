import { EST_SIM_ACCOUNT } from "./accounts";

/** Where kasa serves the EST simulator (sandbox, and tests that ask for it). */
export const EST_SIM_PATHS = { gate: "/sim-est/fim/est3Dgate", api: "/sim-est/fim/api", calls: "/sim-est/calls" } as const;

/** The seed object of an EST connection to the simulator that kasa serves at `baseUrl` (sandbox, tests). */
export const estSimulatorSettings = (baseUrl: string, model: "3d" | "3d_pay", timeoutMs: number) => ({
  model,
  gateUrl: `${baseUrl}${EST_SIM_PATHS.gate}`,
  apiUrl: `${baseUrl}${EST_SIM_PATHS.api}`,
  clientId: EST_SIM_ACCOUNT.clientId,
  apiUser: EST_SIM_ACCOUNT.apiUser,
  apiPassword: EST_SIM_ACCOUNT.apiPassword,
  storeKey: EST_SIM_ACCOUNT.storeKey,
  lang: "tr" as const,
  timeoutMs,
});
