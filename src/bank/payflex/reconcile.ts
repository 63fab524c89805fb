import type { BankReconciler } from "../module";
import type { BankGateway } from "../gateway";
import { statusReconciler } from "../status-reconciler";

// Payflex's reconciliation facet (docs/reconciliation.md): the adapter's own follow-up queries. The Search query says whether the bank approved the order, not for how much.
// A refund is found by the markers the adapter records before it sends one: `?void` finds a
// void, `?refund:0` any credit of the order.

export const createPayflexReconciler = (gateway: BankGateway): BankReconciler =>
  statusReconciler(gateway, { void: "?void", anyCredit: "?refund:0" });
