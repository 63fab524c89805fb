import { GARANTI_SIM_ACCOUNT } from "./accounts";

/** Where kasa serves the Garanti simulator (sandbox, and tests that ask for it). */
export const GARANTI_SIM_PATHS = {
  gate: "/sim-garanti/servlet/gt3dengine",
  api: "/sim-garanti/VPServlet",
  calls: "/sim-garanti/calls",
} as const;

/** The seed object of a Garanti connection to the simulator that kasa serves at `baseUrl` (sandbox, tests). */
export const garantiSimulatorSettings = (baseUrl: string, model: "3d" | "3d_pay", timeoutMs: number) => ({
  model,
  gateUrl: `${baseUrl}${GARANTI_SIM_PATHS.gate}`,
  apiUrl: `${baseUrl}${GARANTI_SIM_PATHS.api}`,
  ...GARANTI_SIM_ACCOUNT,
  mode: "TEST" as const,
  timeoutMs,
});
