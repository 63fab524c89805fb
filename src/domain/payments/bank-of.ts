import type { BankGateway } from "../../bank/gateway";
import type { Deps } from "../../deps";
import { invariant } from "../../invariant";
import type { PaymentRow } from "../../store/rows-money";
import type { Repos } from "../../store/store";

/** The adapter of a connection (docs/banks.md); every bank call of an attempt goes to its connection's. */
export async function bankOf(deps: Deps, connectionId: string): Promise<BankGateway> {
  const connection = await deps.store.q.catalog.connection(connectionId);
  invariant(connection, `connection ${connectionId} is missing`);
  return deps.banks.forConnection(connection);
}

/**
 * The connection that took a captured payment's money: its captured attempt's (routing.ts), which
 * refunds and voids follow. A payment captured with no attempt on record (rows a test or an
 * import wrote directly) falls back to the payment's own connection, the one every attempt
 * used before attempts recorded theirs.
 */
export async function captureConnectionOf(q: Repos, payment: PaymentRow): Promise<string> {
  return (await capturedAttempt(q, payment))?.connectionId ?? payment.connectionId;
}

/** The terminal that captured: a router's serving member (docs/routing.md), else the payment's own. */
export async function captureTerminalOf(q: Repos, payment: PaymentRow): Promise<string> {
  return (await capturedAttempt(q, payment))?.terminalId ?? payment.terminalId;
}

const capturedAttempt = async (q: Repos, payment: PaymentRow) =>
  (await q.attempts.byPayment(payment.code)).find((a) => a.status === "captured");
