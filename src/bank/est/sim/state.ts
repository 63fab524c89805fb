import type { SimProfile } from "../../test-cards";
import type { EstSimAccount } from "./accounts";
import { istanbulDay } from "./clock";
import type { EstSimFault } from "./faults";

// The simulated bank's memory. It never holds a PAN or a CVV: a 3D authentication keeps only the
// card's behaviour profile (and the md, which carries the BIN as the real one does).

/** One 3D authentication from the gate, found again by its md (Auth's Number) or its xid. */
export interface ThreeDAuth {
  md: string;
  xid: string;
  clientId: string;
  oid: string;
  amountKurus: number;
  taksit: string;
  profile: SimProfile;
  mdStatus: string;
  /** Set once an Auth (or the 3d_pay gate) has used it: EST refuses an md/xid twice. */
  used: boolean;
}

/** A = authorised today, S = settled (end of day passed), V = voided. */
export type OrderState = "A" | "S" | "V";

export interface CreditRecord {
  amountKurus: number;
  atMs: number;
  authCode: string;
  hostRefNum: string;
  transId: string;
}

export interface Order {
  clientId: string;
  oid: string;
  amountKurus: number;
  taksit: string;
  profile: SimProfile;
  state: OrderState;
  authorisedAtMs: number;
  authCode: string;
  hostRefNum: string;
  transId: string;
  credits: CreditRecord[];
}

/** One API request as the simulator received it (tests read these through `calls()`). */
export interface EstSimCall {
  clientId: string;
  oid: string;
  /** The request's Type (`Auth`, `Void`, `Credit`, ...), `ORDERSTATUS`/`ORDERHISTORY` for queries, "" when unreadable. */
  type: string;
  /** Total in kuruş, null when absent or not an amount. */
  total: number | null;
  atMs: number;
  /** The code the simulator decided; null when it answered without one (HTTP 500 fault). */
  procReturnCode: string | null;
  fault: EstSimFault | null;
}

export class EstSimState {
  readonly #orders = new Map<string, Order>();
  readonly #byMd = new Map<string, ThreeDAuth>();
  readonly #byXid = new Map<string, ThreeDAuth>();
  readonly #calls: EstSimCall[] = [];
  readonly #accounts: ReadonlyMap<string, EstSimAccount>;

  constructor(
    accounts: readonly EstSimAccount[],
    readonly nowMs: () => number,
  ) {
    this.#accounts = new Map(accounts.map((a) => [a.clientId, a]));
  }

  account(clientId: string): EstSimAccount | undefined {
    return this.#accounts.get(clientId);
  }

  remember(auth: ThreeDAuth): void {
    if (auth.md !== "") this.#byMd.set(auth.md, auth);
    if (auth.xid !== "") this.#byXid.set(auth.xid, auth);
  }

  byMd(md: string): ThreeDAuth | undefined {
    return this.#byMd.get(md);
  }

  byXid(xid: string): ThreeDAuth | undefined {
    return this.#byXid.get(xid);
  }

  order(clientId: string, oid: string): Order | undefined {
    return this.#orders.get(`${clientId}:${oid}`);
  }

  addOrder(order: Order): void {
    this.#orders.set(`${order.clientId}:${order.oid}`, order);
  }

  /** The order's state now: an A order authorised on an earlier Istanbul day has settled. */
  stateOf(order: Order): OrderState {
    if (order.state === "A" && istanbulDay(order.authorisedAtMs) < istanbulDay(this.nowMs())) order.state = "S";
    return order.state;
  }

  endOfDay(): void {
    for (const order of this.#orders.values()) if (order.state === "A") order.state = "S";
  }

  record(call: EstSimCall): void {
    this.#calls.push(call);
  }

  calls(oid?: string): readonly EstSimCall[] {
    return oid === undefined ? [...this.#calls] : this.#calls.filter((c) => c.oid === oid);
  }
}
