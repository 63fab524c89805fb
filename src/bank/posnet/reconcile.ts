import type { BankReconciler } from "../module";
import type { BankGateway } from "../gateway";
import { statusReconciler } from "../status-reconciler";

// Posnet's reconciliation facet (docs/reconciliation.md): the adapter's own follow-up queries. The agreement query says whether the bank approved the order, not for how much.
// A refund is found by the markers the adapter records before it sends one: `?reverse` finds a
// void, `?return:0` any credit of the order.

export const createPosnetReconciler = (gateway: BankGateway): BankReconciler =>
  statusReconciler(gateway, { void: "?reverse", anyCredit: "?return:0" });
