import type { SimProfile } from "../../test-cards";
import type { GarantiSimAccount } from "./accounts";
import { istanbulDay } from "./clock";
import type { GarantiSimFault } from "./faults";

// The simulated bank's memory. It never holds a PAN or a CVV: a 3D authentication keeps only the
// card's behaviour profile and its masked number.

/** One 3D authentication from the gate, found again by its md (the provision's Secure3D/Md). */
export interface ThreeDAuth {
  md: string;
  terminalId: string;
  orderId: string;
  amount: number;
  installment: string;
  profile: SimProfile;
  mdStatus: string;
  /** Set once a sales (or the 3D_PAY gate) has used it: one provision per authentication. */
  used: boolean;
}

/** A = approved today, S = settled (end of day passed), V = voided. */
export type OrderState = "A" | "S" | "V";

export interface Txn {
  type: "sales" | "void" | "refund";
  amount: number;
  atMs: number;
  retrefNum: string;
  authCode: string;
}

export interface Order {
  terminalId: string;
  orderId: string;
  amount: number;
  installment: string;
  profile: SimProfile;
  state: OrderState;
  approvedAtMs: number;
  retrefNum: string;
  authCode: string;
  txns: Txn[];
}

/** One API request as the simulator received it (tests read these through `calls()`). */
export interface GarantiSimCall {
  terminalId: string;
  orderId: string;
  /** The request's Transaction/Type, "" when unreadable. */
  type: string;
  amount: number | null;
  atMs: number;
  /** The code the simulator decided; null when it answered without one (HTTP 500 fault). */
  code: string | null;
  fault: GarantiSimFault | null;
}

export class GarantiSimState {
  readonly #orders = new Map<string, Order>();
  readonly #byMd = new Map<string, ThreeDAuth>();
  readonly #calls: GarantiSimCall[] = [];
  readonly #accounts: ReadonlyMap<string, GarantiSimAccount>;

  constructor(
    accounts: readonly GarantiSimAccount[],
    readonly nowMs: () => number,
  ) {
    this.#accounts = new Map(accounts.map((a) => [a.terminalId, a]));
  }

  account(terminalId: string): GarantiSimAccount | undefined {
    return this.#accounts.get(terminalId);
  }

  remember(auth: ThreeDAuth): void {
    this.#byMd.set(auth.md, auth);
  }

  byMd(md: string): ThreeDAuth | undefined {
    return this.#byMd.get(md);
  }

  /** An order id the gate has seen for this terminal (the bank refuses it a second time). */
  seenOrder(terminalId: string, orderId: string): boolean {
    for (const a of this.#byMd.values()) if (a.terminalId === terminalId && a.orderId === orderId) return true;
    return this.order(terminalId, orderId) !== undefined;
  }

  order(terminalId: string, orderId: string): Order | undefined {
    return this.#orders.get(`${terminalId}:${orderId}`);
  }

  addOrder(order: Order): void {
    this.#orders.set(`${order.terminalId}:${order.orderId}`, order);
  }

  /** The order's state now: an A order approved on an earlier Istanbul day has settled. */
  stateOf(order: Order): OrderState {
    if (order.state === "A" && istanbulDay(order.approvedAtMs) < istanbulDay(this.nowMs())) order.state = "S";
    return order.state;
  }

  endOfDay(): void {
    for (const order of this.#orders.values()) if (order.state === "A") order.state = "S";
  }

  record(call: GarantiSimCall): void {
    this.#calls.push(call);
  }

  calls(orderId?: string): readonly GarantiSimCall[] {
    return orderId === undefined ? [...this.#calls] : this.#calls.filter((c) => c.orderId === orderId);
  }
}
