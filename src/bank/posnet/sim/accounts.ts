/** One merchant terminal at the simulated Posnet bank. */
export interface PosnetSimAccount {
  merchantId: string;
  terminalId: string;
  posnetId: string;
  encKey: string;
}

/** The sandbox's terminal; kasa's sandbox seed points its Posnet connection at these values. */
export const POSNET_SIM_ACCOUNT: PosnetSimAccount = {
  merchantId: "6700000501",
  terminalId: "67005001",
  posnetId: "50011",
  encKey: "50,01,50,01,50,01,50,01",
};
