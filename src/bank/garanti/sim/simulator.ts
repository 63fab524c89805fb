import type { GarantiSimAccount } from "./accounts";
import { handleApi } from "./api";
import { handleGate } from "./gate";
import { type GarantiSimCall, GarantiSimState } from "./state";

// An in-process Garanti BBVA GVP bank for kasa's sandbox, served under
// /sim-garanti/servlet/gt3dengine and /sim-garanti/VPServlet. It speaks the wire protocol
// (SHA-512 form, XML and callback hashes, SecurityData with two users) with the protocol
// primitives of src/bank/garanti, takes card behaviour from the sandbox test cards, and injects
// transport faults by the amount's kuruş part (faults.ts).

export interface GarantiSimOptions {
  accounts: readonly GarantiSimAccount[];
  nowMs(): number;
  /** A fresh CSP nonce per page (16+ base64 characters). */
  nonce(): string;
  /** Delay of the "no answer" fault (.91); 65 s by default. */
  slowMs?: number;
}

export interface GarantiSimulator {
  gate(req: Request): Promise<Response>;
  api(req: Request): Promise<Response>;
  /** Every API request received, in order; only those for `orderId` when given. */
  calls(orderId?: string): readonly GarantiSimCall[];
  /** Simulated end of day: every approved order settles. */
  endOfDay(): void;
}

export const DEFAULT_SLOW_MS = 65_000;

export function createGarantiSimulator(options: GarantiSimOptions): GarantiSimulator {
  const state = new GarantiSimState(options.accounts, () => options.nowMs());
  const slowMs = options.slowMs ?? DEFAULT_SLOW_MS;
  return {
    gate: (req) => handleGate(state, req, options.nonce()),
    api: (req) => handleApi(state, req, slowMs),
    calls: (orderId) => state.calls(orderId),
    endOfDay: () => state.endOfDay(),
  };
}
