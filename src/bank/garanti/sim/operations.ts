import type { XmlTree } from "../xml";
import { provDate } from "./clock";
import { newAuthCode, newRetrefNum } from "./random";
import type { GarantiSimState, Order, Txn } from "./state";

// The bank side of each VPServlet operation. An operation decides its answer without touching
// state and hands back `commit`, which the caller runs unless the HTTP 500 fault says nothing
// happened. Codes follow the bank's (`00` approved, `HOST 51`, `GVPS 92` with a reason code);
// the reason codes and Turkish texts the sources do not give are the simulator's own.

export interface Outcome {
  source: "HOST" | "GVPS";
  code: string;
  reasonCode: string;
  errorMsg: string;
  retrefNum: string;
  authCode: string;
  /** Children of `Order` after OrderID and GroupID (the query results). */
  order: XmlTree;
  commit: () => void;
  /** The amount whose kuruş part picks a fault. */
  faultKurus: number | null;
}

const nothing = (): void => {};

const outcome = (o: Partial<Outcome> & Pick<Outcome, "code">): Outcome => ({
  source: "HOST",
  reasonCode: "",
  errorMsg: "",
  retrefNum: "",
  authCode: "",
  order: [],
  commit: nothing,
  faultKurus: null,
  ...o,
});

export const gvpsError = (reasonCode: string, errorMsg: string, faultKurus: number | null = null): Outcome =>
  outcome({ source: "GVPS", code: "92", reasonCode, errorMsg, faultKurus });

export const NOT_FOUND_MSG = "İşlem bulunamadı";

export interface SalesRequest {
  terminalId: string;
  orderId: string;
  amount: number | null;
  md: string;
}

/** The provision after 3D (also the 3D_PAY gate's own sale). */
export function sales(state: GarantiSimState, req: SalesRequest): Outcome {
  const auth = state.byMd(req.md);
  const amount = req.amount;
  if (auth === undefined) return gvpsError("0650", "3D doğrulama bilgisi bulunamadı.", amount);
  if (auth.used) return gvpsError("0652", "3D doğrulama bilgisi daha önce kullanılmış.", amount);
  if (auth.terminalId !== req.terminalId || auth.orderId !== req.orderId) {
    return gvpsError("0653", "Sipariş bilgileri 3D doğrulama ile uyuşmuyor.", amount);
  }
  if (auth.mdStatus !== "1") return gvpsError("0654", `3D doğrulama başarısız (mdstatus ${auth.mdStatus}).`, amount);
  if (amount === null || amount !== auth.amount) return gvpsError("0002", "Tutar 3D doğrulama ile uyuşmuyor.", amount);
  if (state.order(req.terminalId, req.orderId)) return gvpsError("0655", "Sipariş numarası daha önce kullanılmış.", amount);
  const retrefNum = newRetrefNum();
  if (auth.profile === "insufficient_funds") {
    return outcome({
      code: "51",
      reasonCode: "51",
      errorMsg: "Yetersiz bakiye",
      retrefNum,
      faultKurus: amount,
      commit: () => {
        auth.used = true;
      },
    });
  }
  const authCode = newAuthCode();
  const atMs = state.nowMs();
  return outcome({
    code: "00",
    retrefNum,
    authCode,
    faultKurus: amount,
    commit: () => {
      auth.used = true;
      state.addOrder({
        terminalId: req.terminalId,
        orderId: req.orderId,
        amount,
        installment: auth.installment,
        profile: auth.profile,
        state: "A",
        approvedAtMs: atMs,
        retrefNum,
        authCode,
        txns: [{ type: "sales", amount, atMs, retrefNum, authCode }],
      });
    },
  });
}

export interface RefundRequest {
  terminalId: string;
  orderId: string;
  amount: number | null;
  originalRetrefNum: string;
}

function findSale(state: GarantiSimState, req: RefundRequest): Order | undefined {
  const order = state.order(req.terminalId, req.orderId);
  return order && order.retrefNum === req.originalRetrefNum ? order : undefined;
}

const refunded = (order: Order): number => order.txns.filter((t) => t.type === "refund").reduce((sum, t) => sum + t.amount, 0);

function txn(state: GarantiSimState, type: Txn["type"], amount: number): Txn {
  return { type, amount, atMs: state.nowMs(), retrefNum: newRetrefNum(), authCode: newAuthCode() };
}

/** Void: the whole sale, only before the bank's end of day; the amount is the sale's (or the library's constant 100). */
export function voidSale(state: GarantiSimState, req: RefundRequest): Outcome {
  const order = findSale(state, req);
  if (!order || state.stateOf(order) !== "A" || refunded(order) > 0) {
    return gvpsError("0214", "İptal edilmeye uygun satış işlemi bulunamadı.", order?.amount ?? req.amount);
  }
  if (req.amount !== order.amount && req.amount !== 100) return gvpsError("0002", "İptal tutarı satış tutarı ile uyuşmuyor.", order.amount);
  if (order.profile === "refund_declined") {
    return outcome({ code: "05", reasonCode: "05", errorMsg: "RPC-05 condition was raised", faultKurus: order.amount });
  }
  const t = txn(state, "void", order.amount);
  return outcome({
    code: "00",
    retrefNum: t.retrefNum,
    authCode: t.authCode,
    faultKurus: order.amount,
    commit: () => {
      order.state = "V";
      order.txns.push(t);
    },
  });
}

/** Refund: after the bank's end of day, partial allowed, never above what is left. */
export function refund(state: GarantiSimState, req: RefundRequest): Outcome {
  const amount = req.amount;
  if (amount === null || amount === 0) return gvpsError("0002", "TxnAmount field must not be zero", amount);
  const order = findSale(state, req);
  if (!order || state.stateOf(order) !== "S") return gvpsError("0208", "İade etmek istediğiniz işlem geçerli değil", amount);
  if (amount > order.amount - refunded(order)) return gvpsError("0209", "İade tutarı satış tutarını aşıyor.", amount);
  if (order.profile === "refund_declined")
    return outcome({ code: "05", reasonCode: "05", errorMsg: "RPC-05 condition was raised", faultKurus: amount });
  const t = txn(state, "refund", amount);
  return outcome({
    code: "00",
    retrefNum: t.retrefNum,
    authCode: t.authCode,
    faultKurus: amount,
    commit: () => {
      order.txns.push(t);
    },
  });
}

const STATUS = { A: "APPROVED", S: "APPROVED", V: "VOID" } as const;

export function orderInq(state: GarantiSimState, terminalId: string, orderId: string): Outcome {
  const order = state.order(terminalId, orderId);
  if (!order) return gvpsError("0110", NOT_FOUND_MSG);
  return outcome({
    code: "00",
    retrefNum: order.retrefNum,
    authCode: order.authCode,
    order: [
      [
        "OrderInqResult",
        [
          ["ChargeType", "S"],
          ["AuthAmount", String(order.amount)],
          ["AuthDate", provDate(order.approvedAtMs)],
          ["Status", STATUS[state.stateOf(order)]],
          ["InstallmentCnt", order.installment || "0"],
          ["RetrefNum", order.retrefNum],
          ["AuthCode", order.authCode],
          ["ProvDate", provDate(order.approvedAtMs)],
        ],
      ],
    ],
  });
}

export function orderHistory(state: GarantiSimState, terminalId: string, orderId: string): Outcome {
  const order = state.order(terminalId, orderId);
  if (!order) return gvpsError("0108", "Gönderilen sipariş numarasına ait kayıt bulunmamaktadır");
  const txns: XmlTree = order.txns.map((t) => [
    "OrderTxn",
    [
      ["Type", t.type],
      ["Status", "APPROVED"],
      ["AuthAmount", String(t.amount)],
      ["RetrefNum", t.retrefNum],
      ["AuthCode", t.authCode],
      ["ProvDate", provDate(t.atMs)],
    ],
  ]);
  return outcome({ code: "00", order: [["OrderHistInqResult", [["OrderTxnList", txns]]]] });
}
