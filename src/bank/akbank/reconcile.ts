import type { BankGateway } from "../gateway";
import type { BankReconciler, BankRecordStatus, DayOrder } from "../module";
import { statusReconciler } from "../status-reconciler";
import type { AkbankConfig } from "./config";
import { dailyList, type DailyRow } from "./daily-list";
import { TXN } from "./requests";
import type { AkbankTransport } from "./wire";

// AkbankPos's reconciliation facet (docs/reconciliation.md): the order history (1010) says whether
// the bank approved an order, not for how much; a refund is found by the markers the adapter
// records before it sends one (`?void` a void, `?refund:0` any credit of the order). The protocol
// lists a day's transactions (`portal/report/transaction`, daily-list.ts): its sales are the day's
// orders, so an approved one kasa has no attempt of is found.

/** The list's status of a sale: V voided, R refunded (wholly or in part), anything else the sale stands. */
const statusOf = (row: DailyRow): BankRecordStatus => {
  if (row.status === "V") return "voided";
  if (row.status === "R") return "refunded";
  return "approved";
};

export function createAkbankReconciler(
  gateway: BankGateway,
  config: AkbankConfig,
  env: AkbankTransport & { nowMs: () => number },
): BankReconciler {
  return {
    ...statusReconciler(gateway, { void: "?void", anyCredit: "?refund:0" }),
    async day(dayStartMs): Promise<DayOrder[] | null> {
      const rows = await dailyList(config, { fetch: env.fetch }, { nowMs: env.nowMs() }, dayStartMs);
      if (rows === null) return null;
      return rows
        .filter((r) => r.txnCode === TXN.sale)
        .map((r) => ({
          orderId: r.orderId,
          // kasa's order ids are its attempt ids (oid.ts): anything else was never kasa's.
          attemptId: r.orderId.startsWith("att-") ? r.orderId : null,
          status: statusOf(r),
          amount: r.amount,
          reference: null,
        }));
    },
  };
}
