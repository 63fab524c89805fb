import { handleApi } from "./api";
import { handleGate } from "./gate";
import type { EstSimAccount } from "./accounts";
import { EstSimState, type EstSimCall } from "./state";

// An in-process EST / NestPay bank for kasa's sandbox, served under /sim-est/fim/est3Dgate and
// /sim-est/fim/api. It speaks the wire protocol (ver3 hashes, ISO-8859-9 callbacks and XML) with
// the protocol primitives of src/bank/est, takes card behaviour from the sandbox test cards, and
// injects transport faults by the amount's kuruş part (faults.ts).

export { EST_SIM_ACCOUNT, type EstSimAccount } from "./accounts";

export { EST_SIM_FAULTS, type EstSimFault } from "./faults";
export {
  decideThreeD,
  type GateCallback,
  type GateCallbackInput,
  type GatePayment,
  gateCallbackFields,
  MERCHANT_NAME,
  maskPan,
  type ThreeDResult,
} from "./gate-callback";
export { callbackFromGatePage } from "./gate-page";
export type { EstSimCall } from "./state";

export interface EstSimOptions {
  accounts: readonly EstSimAccount[];
  nowMs(): number;
  /** A fresh CSP nonce per page (16+ base64 characters). */
  nonce(): string;
  /** Delay of the "no answer" fault (.91); 65 s by default. */
  slowMs?: number;
}

export interface EstSimulator {
  /** POST /sim-est/fim/est3Dgate */
  gate(req: Request): Promise<Response>;
  /** POST /sim-est/fim/api */
  api(req: Request): Promise<Response>;
  /** Every API request received, in order; only those for `oid` when given. */
  calls(oid?: string): readonly EstSimCall[];
  /** Simulated end of day: every order in state A becomes S. An order authorised on an earlier Istanbul day is S anyway. */
  endOfDay(): void;
}

export const DEFAULT_SLOW_MS = 65_000;

export function createEstSimulator(options: EstSimOptions): EstSimulator {
  const state = new EstSimState(options.accounts, () => options.nowMs());
  const slowMs = options.slowMs ?? DEFAULT_SLOW_MS;
  return {
    gate: (req) => handleGate(state, req, options.nonce()),
    api: (req) => handleApi(state, req, slowMs),
    calls: (oid) => state.calls(oid),
    endOfDay: () => state.endOfDay(),
  };
}
