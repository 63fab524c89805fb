/** One terminal at the simulated Garanti bank: its merchant, users, passwords and 3D store key. */
export interface GarantiSimAccount {
  merchantId: string;
  terminalId: string;
  provUserId: string;
  provPassword: string;
  refundUserId: string;
  refundPassword: string;
  storeKey: string;
}

/** The sandbox's terminal; kasa's sandbox seed points its Garanti connection at these values. */
export const GARANTI_SIM_ACCOUNT: GarantiSimAccount = {
  merchantId: "7004001",
  terminalId: "30694001",
  provUserId: "PROVAUT",
  provPassword: "KASASIM40prov",
  refundUserId: "PROVRFN",
  refundPassword: "KASASIM40rfn",
  storeKey: "KASASIM4001",
};
