import type { SimProfile } from "../../test-cards";
import type { PosnetSimAccount } from "./accounts";
import type { PosnetSimFault } from "./faults";

// The simulated bank's memory. It never holds a PAN, an expiry or a CVV: a 3D session keeps only
// the card's behaviour profile (test-cards.ts) and the order facts.

/** One oosRequestData answer: the strings the browser carries to the 3D page, found by data1. */
export interface Session {
  merchantId: string;
  data1: string;
  data2: string;
  sign: string;
  xid: string;
  amountKurus: number;
  installment: string;
  profile: SimProfile;
  /** Set once the 3D page took it: the bank serves a session once. */
  atGate: boolean;
}

/** The callback's packets, found by MerchantPacket: the 3D result and whether oosTranData ran. */
export interface Packets {
  merchantPacket: string;
  bankPacket: string;
  sign: string;
  session: Session;
  mdStatus: string;
  /** The first oosTranData's answer; a second gets `approved 2` with these. */
  tran: { hostlogkey: string; authCode: string } | null;
}

export interface Entry {
  state: "Sale" | "Reverse" | "Return";
  amountKurus: number;
  atMs: number;
  hostlogkey: string;
  authCode: string;
}

/** A charged order under `TDSC` + XID, with its reverse and returns after it. */
export interface Order {
  merchantId: string;
  orderId: string;
  profile: SimProfile;
  installment: string;
  entries: Entry[];
}

/** One API request as the simulator received it (tests and integrators read these through `calls`). */
export interface PosnetSimCall {
  /** The operation element (`oosRequestData`, `oosTranData`, `agreement`, ...), "" when unreadable. */
  operation: string;
  /** The XID or order id it named, "" when none. */
  order: string;
  atMs: number;
  approved: string | null;
  fault: PosnetSimFault | null;
}

export class PosnetSimState {
  readonly sessions = new Map<string, Session>();
  readonly packets = new Map<string, Packets>();
  readonly #orders = new Map<string, Order>();
  readonly #calls: PosnetSimCall[] = [];
  readonly #accounts: ReadonlyMap<string, PosnetSimAccount>;

  constructor(
    accounts: readonly PosnetSimAccount[],
    readonly nowMs: () => number,
  ) {
    this.#accounts = new Map(accounts.map((a) => [`${a.merchantId}:${a.terminalId}`, a]));
  }

  account(merchantId: string, terminalId: string): PosnetSimAccount | undefined {
    return this.#accounts.get(`${merchantId}:${terminalId}`);
  }

  accountByMerchant(merchantId: string): PosnetSimAccount | undefined {
    return [...this.#accounts.values()].find((a) => a.merchantId === merchantId);
  }

  order(merchantId: string, orderId: string): Order | undefined {
    return this.#orders.get(`${merchantId}:${orderId}`);
  }

  addOrder(order: Order): void {
    this.#orders.set(`${order.merchantId}:${order.orderId}`, order);
  }

  record(call: PosnetSimCall): void {
    this.#calls.push(call);
  }

  calls(order?: string): readonly PosnetSimCall[] {
    return order === undefined ? [...this.#calls] : this.#calls.filter((c) => c.order.endsWith(order));
  }
}
