import { randomBytes, randomInt } from "node:crypto";
import type { SimProfile } from "../../test-cards";
import { istanbulDay } from "../wire-time";
import type { AkbankSimFault } from "./faults";

// The simulated bank's memory. It never holds a PAN or a CVV: a 3D authentication keeps only the
// card's behaviour profile and the secure* values the sale must bring back.

export interface ThreeDAuth {
  orderId: string;
  amountKurus: number;
  installCount: number;
  profile: SimProfile;
  secureId: string;
  secureEcomInd: string;
  secureData: string;
  secureMd: string;
  /** Set once a sale has used it: one sale per 3D authentication. */
  used: boolean;
}

export interface SimTxn {
  txnCode: string;
  responseCode: string;
  amountKurus: number;
  atMs: number;
  authCode: string;
  rrn: string;
}

export interface Order {
  orderId: string;
  amountKurus: number;
  installCount: number;
  profile: SimProfile;
  voided: boolean;
  sale: SimTxn;
  refunds: SimTxn[];
}

/** One API request as the simulator received it (tests read these through `calls()`). */
export interface AkbankSimCall {
  orderId: string;
  txnCode: string;
  /** In kuruş, null when absent. */
  amount: number | null;
  atMs: number;
  /** The code the simulator decided; null when it answered without one (a refused request, HTTP 500). */
  responseCode: string | null;
  fault: AkbankSimFault | null;
}

const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(10))).join("");

export const newRefs = () => ({ authCode: digits(6), rrn: digits(12) });
export const newSecure = () => ({
  secureId: randomBytes(15).toString("base64"),
  secureData: randomBytes(21).toString("base64"),
  secureMd: randomBytes(32).toString("hex").toUpperCase(),
});

export class AkbankSimState {
  readonly #orders = new Map<string, Order>();
  readonly #byMd = new Map<string, ThreeDAuth>();
  readonly #randoms = new Set<string>();
  readonly #calls: AkbankSimCall[] = [];

  constructor(readonly nowMs: () => number) {}

  /** A request's randomNumber, refused when seen before (a replayed request). */
  freshRandom(random: string): boolean {
    if (this.#randoms.has(random)) return false;
    this.#randoms.add(random);
    return true;
  }

  remember(auth: ThreeDAuth): void {
    this.#byMd.set(auth.secureMd, auth);
  }

  byMd(md: string): ThreeDAuth | undefined {
    return this.#byMd.get(md);
  }

  order(orderId: string): Order | undefined {
    return this.#orders.get(orderId);
  }

  addOrder(order: Order): void {
    this.#orders.set(order.orderId, order);
  }

  /** Every order, in the order the bank took them (the daily list reads them). */
  orders(): Order[] {
    return [...this.#orders.values()];
  }

  /** Settled: the order was authorised on an earlier Istanbul day (or the day was ended by hand). */
  settled(order: Order): boolean {
    return istanbulDay(order.sale.atMs) < istanbulDay(this.nowMs());
  }

  record(call: AkbankSimCall): void {
    this.#calls.push(call);
  }

  calls(orderId?: string): readonly AkbankSimCall[] {
    return orderId === undefined ? [...this.#calls] : this.#calls.filter((c) => c.orderId === orderId);
  }
}
