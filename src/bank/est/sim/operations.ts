import { authDttm } from "./clock";
import { newAuthCode, newHostRefNum, newTransId } from "./random";
import type { EstSimState, Order, ThreeDAuth } from "./state";

// The bank side of each API operation. An operation decides its answer without touching state
// and hands back `commit`, which the caller runs unless the HTTP 500 fault says nothing happened.

export interface Outcome {
  response: "Approved" | "Declined" | "Error";
  procReturnCode: string;
  errMsg: string;
  /** Extra/ERRORCODE. */
  errorCode: string;
  authCode: string;
  hostRefNum: string;
  transId: string;
  /** More Extra children, after SETTLEID, TRXDATE, ERRORCODE and NUMCODE. */
  extra: Record<string, string>;
  commit: () => void;
  /** The amount whose kuruş part picks a fault (Void: the order's amount). */
  faultKurus: number | null;
}

const nothing = (): void => {};

const outcome = (o: Partial<Outcome> & Pick<Outcome, "response" | "procReturnCode">): Outcome => ({
  errMsg: "",
  errorCode: "",
  authCode: "",
  hostRefNum: "",
  transId: "",
  extra: {},
  commit: nothing,
  faultKurus: null,
  ...o,
});

export const apiError = (errMsg: string, errorCode: string, faultKurus: number | null = null): Outcome =>
  outcome({ response: "Error", procReturnCode: "99", errMsg, errorCode, faultKurus });

export const XID_REUSED = "XID daha önce kullanılmıştır. Tekrar kullanılamaz.";

export interface AuthRequest {
  clientId: string;
  oid: string;
  totalKurus: number | null;
  /** The 3D authentication named by Number (md); undefined when Number names none. */
  threeD: ThreeDAuth | undefined;
  /** PayerTxnId, when the merchant sends the xid too. */
  xid: string;
}

/** Auth after 3D (also the 3d_pay gate's own authorisation). */
export function authorise(state: EstSimState, req: AuthRequest): Outcome {
  const { threeD, totalKurus } = req;
  const viaXid = req.xid === "" ? undefined : state.byXid(req.xid);
  if (threeD === undefined) return apiError("3D dogrulama bilgisi (MD) bulunamadi.", "CORE-2012", totalKurus);
  if (threeD.used || viaXid?.used) return apiError(XID_REUSED, "CORE-2009", totalKurus);
  if (threeD.clientId !== req.clientId || threeD.oid !== req.oid) {
    return apiError("Siparis bilgileri 3D dogrulama ile uyusmuyor.", "CORE-2013", totalKurus);
  }
  if (threeD.mdStatus !== "1") return apiError(`3D dogrulama basarisiz (mdStatus ${threeD.mdStatus}).`, "CORE-2014", totalKurus);
  if (totalKurus === null || totalKurus !== threeD.amountKurus) return apiError("Tutar uyusmuyor", "CORE-2015", totalKurus);
  if (state.order(req.clientId, req.oid)) return apiError("Siparis numarasi daha once kullanilmis.", "CORE-2011", totalKurus);
  const hostRefNum = newHostRefNum();
  const transId = newTransId(state.nowMs());
  if (threeD.profile === "insufficient_funds") {
    return outcome({
      response: "Declined",
      procReturnCode: "51",
      errMsg: "Yetersiz bakiye",
      hostRefNum,
      transId,
      faultKurus: totalKurus,
      commit: () => {
        threeD.used = true;
      },
    });
  }
  const authCode = newAuthCode();
  return outcome({
    response: "Approved",
    procReturnCode: "00",
    authCode,
    hostRefNum,
    transId,
    faultKurus: totalKurus,
    commit: () => {
      threeD.used = true;
      state.addOrder({
        clientId: req.clientId,
        oid: req.oid,
        amountKurus: threeD.amountKurus,
        taksit: threeD.taksit,
        profile: threeD.profile,
        state: "A",
        authorisedAtMs: state.nowMs(),
        authCode,
        hostRefNum,
        transId,
        credits: [],
      });
    },
  });
}

export function voidOrder(state: EstSimState, clientId: string, oid: string): Outcome {
  const order = state.order(clientId, oid);
  if (!order || state.stateOf(order) !== "A") {
    return apiError("İptal edilmeye uygun satış işlemi bulunamadı.", "CORE-2008", order?.amountKurus ?? null);
  }
  if (order.profile === "refund_declined") {
    return outcome({ response: "Declined", procReturnCode: "99", errMsg: "Islem reddedildi", faultKurus: order.amountKurus });
  }
  return outcome({
    response: "Approved",
    procReturnCode: "00",
    authCode: order.authCode,
    hostRefNum: newHostRefNum(),
    transId: newTransId(state.nowMs()),
    faultKurus: order.amountKurus,
    commit: () => {
      order.state = "V";
    },
  });
}

const refunded = (order: Order): number => order.credits.reduce((sum, c) => sum + c.amountKurus, 0);

export function credit(state: EstSimState, clientId: string, oid: string, totalKurus: number | null): Outcome {
  if (totalKurus === null) return apiError("Gecersiz tutar.", "CORE-2502");
  const order = state.order(clientId, oid);
  if (!order) return apiError("Iade yapilacak siparis bulunamadi.", "CORE-2507", totalKurus);
  if (state.stateOf(order) !== "S") return apiError("Iade yapilamaz, siparis gunsonuna girmemis.", "CORE-2508", totalKurus);
  if (totalKurus === 0) return apiError("Sifir miktarli iade yapilamaz.", "CORE-2504", totalKurus);
  if (totalKurus > order.amountKurus - refunded(order)) return apiError("Net Tutar 0.", "215021", totalKurus);
  if (order.profile === "refund_declined") {
    return outcome({ response: "Declined", procReturnCode: "05", errMsg: "Islem reddedildi", faultKurus: totalKurus });
  }
  const entry = {
    amountKurus: totalKurus,
    atMs: state.nowMs(),
    authCode: newAuthCode(),
    hostRefNum: newHostRefNum(),
    transId: newTransId(state.nowMs()),
  };
  return outcome({
    response: "Approved",
    procReturnCode: "00",
    authCode: entry.authCode,
    hostRefNum: entry.hostRefNum,
    transId: entry.transId,
    faultKurus: totalKurus,
    commit: () => {
      order.credits.push(entry);
    },
  });
}

export function orderStatus(state: EstSimState, clientId: string, oid: string): Outcome {
  const order = state.order(clientId, oid);
  if (!order) return apiError(`No record found for ${oid}`, "");
  return outcome({
    response: "Approved",
    procReturnCode: "00",
    errMsg: `Record(s) found for ${oid}`,
    authCode: order.authCode,
    hostRefNum: order.hostRefNum,
    transId: order.transId,
    extra: {
      ORD_ID: order.oid,
      TRANS_STAT: state.stateOf(order),
      CHARGE_TYPE_CD: "S",
      ORIG_TRANS_AMT: String(order.amountKurus),
      CAPTURE_AMT: String(order.amountKurus),
      AUTH_CODE: order.authCode,
      HOST_REF_NUM: order.hostRefNum,
      TRANS_ID: order.transId,
      PROC_RET_CD: "00",
      AUTH_DTTM: authDttm(order.authorisedAtMs),
      TAKSIT: order.taksit,
    },
  });
}

/** TRX lines: type, TRANS_STAT, first amount, capture amount, time, "", "", HostRefNum, AuthCode, ProcReturnCode, TransId. */
export function orderHistory(state: EstSimState, clientId: string, oid: string): Outcome {
  const order = state.order(clientId, oid);
  if (!order) return apiError(`No record found for ${oid}`, "");
  const line = (type: string, stat: string, kurus: number, atMs: number, hostRef: string, auth: string, transId: string) =>
    [type, stat, String(kurus), String(kurus), authDttm(atMs), "", "", hostRef, auth, "00", transId].join("\t");
  const lines = [
    line("S", state.stateOf(order), order.amountKurus, order.authorisedAtMs, order.hostRefNum, order.authCode, order.transId),
    ...order.credits.map((c) => line("C", "S", c.amountKurus, c.atMs, c.hostRefNum, c.authCode, c.transId)),
  ];
  const extra: Record<string, string> = { TRXCOUNT: String(lines.length) };
  lines.forEach((l, i) => {
    extra[`TRX${i + 1}`] = l;
  });
  return outcome({
    response: "Approved",
    procReturnCode: "00",
    errMsg: `Record(s) found for ${oid}`,
    authCode: order.authCode,
    hostRefNum: order.hostRefNum,
    transId: order.transId,
    extra,
  });
}
