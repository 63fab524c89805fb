import { toLira } from "../../../lira";
import { requestDateTime } from "../wire-time";
import { type AkbankSimState, newRefs, type Order, type SimTxn, type ThreeDAuth } from "./state";

// The bank side of each API operation. An operation decides its answer without touching state
// and hands back `commit`, which the caller runs unless the HTTP 500 fault says nothing happened.

export interface Outcome {
  answer: Record<string, unknown>;
  commit: () => void;
  /** The amount whose kuruş part picks a fault (void: the order's amount). */
  faultKurus: number | null;
}

const nothing = (): void => {};

export const refused = (responseCode: string, responseMessage: string, faultKurus: number | null = null): Outcome => ({
  answer: { responseCode, responseMessage },
  commit: nothing,
  faultKurus,
});

const approvedTxn = (state: AkbankSimState, txnCode: string, amountKurus: number): SimTxn => ({
  txnCode,
  responseCode: "VPS-0000",
  amountKurus,
  atMs: state.nowMs(),
  ...newRefs(),
});

const txnAnswer = (state: AkbankSimState, txn: SimTxn, extra: Record<string, unknown> = {}) => ({
  responseCode: "VPS-0000",
  responseMessage: "BAŞARILI",
  hostResponseCode: "00",
  hostMessage: `000 ONAY KODU ${txn.authCode}`,
  txnDateTime: requestDateTime(state.nowMs()),
  transaction: { authCode: txn.authCode, rrn: txn.rrn, batchNumber: "1", stan: txn.rrn.slice(-6) },
  ...extra,
});

/** The sale of a 3D authentication (1000 with secureTransaction, or the 3D_PAY gate itself). */
export function sale(state: AkbankSimState, auth: ThreeDAuth): Outcome {
  const amount = auth.amountKurus;
  if (auth.used || state.order(auth.orderId)) return refused("VPS-1013", `Sipariş Numarası : ${auth.orderId} tekil olmalıdır.`, amount);
  if (auth.profile === "insufficient_funds") {
    return {
      answer: {
        responseCode: "VPS-1005",
        responseMessage: "Provizyon Hatası",
        hostResponseCode: "51",
        hostMessage: "YETERSIZ BAKIYE",
        transaction: { authCode: "000000" },
      },
      commit: () => {
        auth.used = true;
      },
      faultKurus: amount,
    };
  }
  const txn = approvedTxn(state, "1000", amount);
  return {
    answer: txnAnswer(state, txn),
    commit: () => {
      auth.used = true;
      state.addOrder({
        orderId: auth.orderId,
        amountKurus: amount,
        installCount: auth.installCount,
        profile: auth.profile,
        voided: false,
        sale: txn,
        refunds: [],
      });
    },
    faultKurus: amount,
  };
}

export function voidOrder(state: AkbankSimState, order: Order | undefined): Outcome {
  if (!order) return refused("VPS-1007", "Orjinal İşlem bulunamadı.");
  if (order.voided) return refused("VPS-1008", "Daha önce iptal edilmiş işlem", order.amountKurus);
  if (state.settled(order) || order.refunds.length > 0)
    return refused("VPS-1007", "İptal edilmeye uygun işlem bulunamadı.", order.amountKurus);
  if (order.profile === "refund_declined") return refused("VPS-1005", "İşlem reddedildi", order.amountKurus);
  const txn = approvedTxn(state, "1003", order.amountKurus);
  return {
    answer: txnAnswer(state, txn),
    commit: () => {
      order.voided = true;
    },
    faultKurus: order.amountKurus,
  };
}

const refundedOf = (order: Order): number => order.refunds.reduce((sum, r) => sum + r.amountKurus, 0);

export function refund(state: AkbankSimState, order: Order | undefined, amountKurus: number | null): Outcome {
  if (!order) return refused("VPS-1007", "Orjinal İşlem bulunamadı.", amountKurus);
  const amount = amountKurus ?? order.amountKurus - refundedOf(order);
  if (order.voided) return refused("VPS-1008", "Daha önce iptal edilmiş işlem", amount);
  if (!state.settled(order)) return refused("VPS-1007", "İade yapılamaz: işlem gün sonuna girmemiş.", amount);
  if (amount <= 0 || amount > order.amountKurus - refundedOf(order))
    return refused("VPS-1005", "İade tutarı satış tutarını aşıyor.", amount);
  if (order.profile === "refund_declined") return refused("VPS-1005", "İşlem reddedildi", amount);
  const txn = approvedTxn(state, "1002", amount);
  return {
    answer: txnAnswer(state, txn),
    commit: () => {
      order.refunds.push(txn);
    },
    faultKurus: amount,
  };
}

const row = (order: Order, txn: SimTxn, txnStatus: string) => ({
  txnCode: txn.txnCode,
  responseCode: txn.responseCode,
  hostResponseCode: "00",
  txnStatus,
  // The real bank writes a JSON number here; the simulator too (kuruş to lira, exact in a double's text).
  amount: Number(toLira(txn.amountKurus)),
  authCode: txn.authCode,
  rrn: txn.rrn,
  batchNumber: "1",
  orderId: order.orderId,
  orgOrderId: order.orderId,
  txnDateTime: requestDateTime(txn.atMs),
  installCount: order.installCount,
  currencyCode: 949,
  preAuthStatus: "O",
});

export function orderHistory(state: AkbankSimState, orderId: string): Outcome {
  const order = state.order(orderId);
  if (!order) return refused("VPS-1123", `İşlem bulunamadı. Sipariş Numarası : ${orderId}`);
  const saleStatus = order.voided ? "V" : order.refunds.length > 0 ? "R" : "N";
  const txnDetailList = [row(order, order.sale, saleStatus), ...order.refunds.map((r) => row(order, r, "N"))];
  return { answer: { responseCode: "VPS-0000", responseMessage: "BAŞARILI", txnDetailList }, commit: nothing, faultKurus: null };
}
