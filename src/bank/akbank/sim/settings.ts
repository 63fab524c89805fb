// The simulated AkbankPos merchant and where kasa serves it (sandbox, and tests that ask for it).

export interface AkbankSimAccount {
  merchantSafeId: string;
  terminalSafeId: string;
  secretKey: string;
}

/** The sandbox's account; kasa's sandbox seed points its AkbankPos terminal at these values. */
export const AKBANK_SIM_ACCOUNT: AkbankSimAccount = {
  merchantSafeId: "2026112715000KASADEMO00000006001",
  terminalSafeId: "2026112715000KASATERM00000006001",
  secretKey: "4b41534153494d414b42414e4b36303031",
};

export const AKBANK_SIM_PATHS = {
  gate: "/sim-akbank/securepay",
  api: "/sim-akbank/api/v1/payment/virtualpos/transaction/process",
  apiBase: "/sim-akbank/api/v1/payment/virtualpos",
  report: "/sim-akbank/api/v1/payment/virtualpos/portal/report/transaction",
  calls: "/sim-akbank/calls",
} as const;

/** The seed object of an AkbankPos connection to the simulator that kasa serves at `baseUrl`. */
export const akbankSimulatorSettings = (baseUrl: string, model: "3d" | "3d_pay", timeoutMs: number) => ({
  model,
  gateUrl: `${baseUrl}${AKBANK_SIM_PATHS.gate}`,
  apiUrl: `${baseUrl}${AKBANK_SIM_PATHS.apiBase}`,
  merchantSafeId: AKBANK_SIM_ACCOUNT.merchantSafeId,
  terminalSafeId: AKBANK_SIM_ACCOUNT.terminalSafeId,
  secretKey: AKBANK_SIM_ACCOUNT.secretKey,
  subMerchantId: null,
  lang: "TR" as const,
  timeoutMs,
});
