// Where kasa serves the PayFlex simulator (sandbox, and tests that ask for it), its one merchant,
// and the seed object of a connection pointing at it.

export const PAYFLEX_SIM_PATHS = {
  mpi: "/sim-payflex/MPIAPI/MPI_Enrollment.aspx",
  termUrl: "/sim-payflex/MPIAPI/MPI_Pares.aspx",
  acs: "/sim-payflex/acs/auth",
  vpos: "/sim-payflex/VposService/v3/Vposreq.aspx",
  search: "/sim-payflex/UIService/Search.aspx",
  calls: "/sim-payflex/calls",
} as const;

export const PAYFLEX_SIM_ACCOUNT = { merchantId: "000000000777001", password: "KASAPF7001", terminalNo: "VP007001" } as const;

/** The one-time code the simulated ACS accepts. */
export const PAYFLEX_SIM_OTP = "123456";

export const payflexSimulatorSettings = (baseUrl: string, timeoutMs: number) => ({
  mpiUrl: `${baseUrl}${PAYFLEX_SIM_PATHS.mpi}`,
  vposUrl: `${baseUrl}${PAYFLEX_SIM_PATHS.vpos}`,
  searchUrl: `${baseUrl}${PAYFLEX_SIM_PATHS.search}`,
  merchantId: PAYFLEX_SIM_ACCOUNT.merchantId,
  password: PAYFLEX_SIM_ACCOUNT.password,
  terminalNo: PAYFLEX_SIM_ACCOUNT.terminalNo,
  merchantType: 0 as const,
  subMerchantId: null,
  timeoutMs,
});
