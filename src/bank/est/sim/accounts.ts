/** One merchant account at the simulated EST bank: the 3D gate's client id and store key, the API's user. */
export interface EstSimAccount {
  clientId: string;
  storeKey: string;
  apiUser: string;
  apiPassword: string;
}

/** The sandbox's account; kasa's sandbox seed points its EST merchant at these values. */
export const EST_SIM_ACCOUNT: EstSimAccount = {
  clientId: "700655000300",
  storeKey: "KASASIM3001",
  apiUser: "KASAAPI",
  apiPassword: "KASASIM07",
};
