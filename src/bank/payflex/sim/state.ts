import { randomBytes } from "node:crypto";

// What the simulated MPI and VPOS remember: the enrollments (by VerifyEnrollmentRequestId), the
// transactions (by TransactionId) and every request received, for tests and integrators.

export type EnrollmentState = "enrolled" | "authenticated" | "attempted" | "failed";

export interface SimEnrollment {
  id: string;
  merchantId: string;
  pan: string;
  /** YYMM */
  expiry: string;
  amount: number;
  installment: number;
  successUrl: string;
  failureUrl: string;
  paReq: string;
  md: string;
  xid: string;
  state: EnrollmentState;
  eci: string;
  cavv: string;
  /** The Sale that used this record, if one did. */
  usedBy: string | null;
}

export interface SimTransaction {
  type: "Sale" | "Cancel" | "Refund";
  transactionId: string;
  orderId: string;
  reference: string | null;
  resultCode: string;
  amount: number;
  authCode: string;
  rrn: string;
  atMs: number;
  canceled: boolean;
  refunded: number;
  maskedPan: string;
}

export interface PayflexSimCall {
  kind: "enrollment" | "Sale" | "Cancel" | "Refund" | "Search" | "other";
  id: string;
  resultCode: string | null;
  fault: string | null;
  atMs: number;
}

export const randomDigits = (n: number): string => Array.from(randomBytes(n), (b) => String(b % 10)).join("");
export const randomToken = (bytes: number): string => randomBytes(bytes).toString("hex");

export class PayflexSimState {
  readonly enrollments = new Map<string, SimEnrollment>();
  readonly byMd = new Map<string, SimEnrollment>();
  readonly transactions = new Map<string, SimTransaction>();
  readonly log: PayflexSimCall[] = [];
  /** Search answers 500 until then (the .95 fault). */
  searchDownUntilMs = 0;
  constructor(readonly nowMs: () => number) {}

  record(call: Omit<PayflexSimCall, "atMs">): void {
    this.log.push({ ...call, atMs: this.nowMs() });
  }

  calls(id?: string): readonly PayflexSimCall[] {
    return id === undefined ? this.log : this.log.filter((c) => c.id === id);
  }

  saleOf(id: string): SimTransaction | undefined {
    const sale = this.transactions.get(id);
    if (sale?.type === "Sale") return sale;
    return [...this.transactions.values()].find((t) => t.type === "Sale" && t.orderId === id);
  }
}
