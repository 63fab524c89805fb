import type { BankGateway } from "../../bank/gateway";
import type { Deps } from "../../deps";
import { invariant } from "../../invariant";

/** Product 17: the adapter of a payment's connection; every bank call of the payment goes to it. */
export async function bankOf(deps: Deps, connectionId: string): Promise<BankGateway> {
  const connection = await deps.store.q.catalog.connection(connectionId);
  invariant(connection, `connection ${connectionId} is missing`);
  return deps.banks.forConnection(connection);
}
