import { toSimProfile } from "../../test-cards";
import { callbackSign, macEquals, requestMac, resolveAnswerMac } from "../crypt";
import { CURRENCY_TL } from "../ids";
import type { XmlFields } from "../xml";
import type { PosnetSimAccount } from "./accounts";
import { istanbulDay, liraComma, newAuthCode, newHex, newHostlogkey, tranDate } from "./random";
import type { Entry, Order, Packets, PosnetSimState } from "./state";

// The bank side of each API operation. An operation decides its answer without touching state and
// hands back `commit`, which the caller runs unless the HTTP 500 fault says nothing happened.

export interface Outcome {
  fields: XmlFields;
  commit: () => void;
  /** The amount whose kuruş part picks a fault; null: this operation never faults. */
  faultKurus: number | null;
}

const nothing = (): void => {};

export const refused = (respCode: string, respText: string, faultKurus: number | null = null): Outcome => ({
  fields: { approved: "0", respCode, respText },
  commit: nothing,
  faultKurus,
});

const NOT_FOUND = () => refused("0123", "İŞLEM BULUNAMADI");

type Get = (name: string) => string;

const luhn = (pan: string): boolean => {
  let sum = 0;
  for (let i = 0; i < pan.length; i++) {
    let d = Number(pan[pan.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
};

/** Step 1: every field checked; the card's profile kept, the card itself dropped here. */
export function requestData(state: PosnetSimState, account: PosnetSimAccount, get: Get): Outcome {
  const pan = get("ccno");
  const amount = get("amount");
  if (get("posnetid") !== account.posnetId) return refused("0003", "POSNET ID HATALI");
  if (!/^\d{12,19}$/.test(pan) || !luhn(pan)) return refused("0876", "KART NUMARASI HATALI");
  if (!/^\d{2}(0[1-9]|1[0-2])$/.test(get("expDate")) || !/^\d{3,4}$/.test(get("cvc")))
    return refused("0877", "SON KULLANMA TARİHİ VEYA CVC HATALI");
  if (!/^[1-9]\d{0,11}$/.test(amount)) return refused("0012", "TUTAR HATALI");
  if (get("currencyCode") !== CURRENCY_TL) return refused("0013", "DÖVİZ KODU HATALI");
  if (!/^(00|0[2-9]|1[0-2])$/.test(get("installment"))) return refused("0014", "TAKSİT SAYISI HATALI");
  if (!/^[A-Za-z0-9]{20}$/.test(get("XID"))) return refused("E189", "Xid hatalı.");
  if (get("tranType") !== "Sale") return refused("0015", "İŞLEM TİPİ HATALI");
  if (state.order(account.merchantId, `TDSC${get("XID")}`)) return refused("0127", "ORDERID DAHA ONCE KULLANILMIS");
  const profile = toSimProfile(pan);
  if (profile === "decline_at_3d") return refused("0505", "KART 3D SECURE İŞLEMLERE KAPALI");
  const session = {
    merchantId: account.merchantId,
    data1: newHex(96),
    data2: newHex(48),
    sign: newHex(16),
    xid: get("XID"),
    amountKurus: Number(amount),
    installment: get("installment"),
    profile,
    atGate: false,
  };
  return {
    fields: { approved: "1", oosRequestDataResponse: { data1: session.data1, data2: session.data2, sign: session.sign } },
    commit: () => void state.sessions.set(session.data1, session),
    faultKurus: null,
  };
}

/** The packets of a resolve or tran, checked as the bank checks them: together, signed, and the mac. */
function checkedPackets(state: PosnetSimState, account: PosnetSimAccount, get: Get): Packets | Outcome {
  const p = state.packets.get(get("merchantData"));
  if (!p || p.session.merchantId !== account.merchantId || p.bankPacket !== get("bankData") || !macEquals(p.sign, get("sign"))) {
    return refused("0225", "PAKET ÇÖZÜLEMEDİ");
  }
  if (!macEquals(callbackSign(p.merchantPacket, p.bankPacket, account.encKey), get("sign"))) return refused("0226", "SIGN HATALI");
  const s = p.session;
  if (!macEquals(requestMac(account, s.xid, String(s.amountKurus), CURRENCY_TL), get("mac")))
    return refused("E216", "Mac Doğrulama hatalı");
  return p;
}

const isOutcome = (x: Packets | Outcome): x is Outcome => "commit" in x;

export function resolve(state: PosnetSimState, account: PosnetSimAccount, get: Get): Outcome {
  const p = checkedPackets(state, account, get);
  if (isOutcome(p)) return p;
  const s = p.session;
  const amount = String(s.amountKurus);
  const block = {
    xid: s.xid,
    amount,
    currency: CURRENCY_TL,
    installment: s.installment,
    point: "0",
    pointAmount: "0",
    txStatus: p.mdStatus === "1" ? "Y" : "N",
    mdStatus: p.mdStatus,
    mdErrorMessage: p.mdStatus === "1" ? "" : "Not authenticated",
    mac: resolveAnswerMac(account, p.mdStatus, s.xid, amount, CURRENCY_TL),
  };
  return {
    fields: { approved: "1", respCode: "", respText: "", oosResolveMerchantDataResponse: block },
    commit: nothing,
    faultKurus: null,
  };
}

const entry = (state: Entry["state"], amountKurus: number, atMs: number): Entry => ({
  state,
  amountKurus,
  atMs,
  hostlogkey: newHostlogkey(),
  authCode: newAuthCode(),
});

/** Step 3b, the charge: once per 3D session (`approved 2` with the first answer's keys after). */
export function tran(state: PosnetSimState, account: PosnetSimAccount, get: Get): Outcome {
  const p = checkedPackets(state, account, get);
  if (isOutcome(p)) return p;
  const s = p.session;
  if (p.tran) {
    const { hostlogkey, authCode } = p.tran;
    return {
      fields: { approved: "2", respCode: "0127", respText: "ORDERID DAHA ONCE KULLANILMIS", hostlogkey, authCode },
      commit: nothing,
      faultKurus: s.amountKurus,
    };
  }
  if (p.mdStatus !== "1") return refused("0225", "3D DOĞRULAMA BAŞARISIZ", s.amountKurus);
  if (s.profile === "insufficient_funds") {
    const o = refused("0051", "YETERSİZ BAKİYE", s.amountKurus);
    const markUsed = () => {
      p.tran = { hostlogkey: "", authCode: "" };
    };
    return { ...o, commit: markUsed };
  }
  const sale = entry("Sale", s.amountKurus, state.nowMs());
  const order: Order = {
    merchantId: account.merchantId,
    orderId: `TDSC${s.xid}`,
    profile: s.profile,
    installment: s.installment,
    entries: [sale],
  };
  return {
    fields: {
      approved: "1",
      respCode: "",
      respText: "",
      hostlogkey: sale.hostlogkey,
      authCode: sale.authCode,
      instInfo: { inst1: s.installment, amnt1: "000000000000" },
    },
    commit: () => {
      p.tran = { hostlogkey: sale.hostlogkey, authCode: sale.authCode };
      state.addOrder(order);
    },
    faultKurus: s.amountKurus,
  };
}

export function agreement(state: PosnetSimState, account: PosnetSimAccount, orderId: string): Outcome {
  const order = state.order(account.merchantId, orderId);
  if (!order) return NOT_FOUND();
  const transaction = order.entries.map((e) => ({
    orderID: order.orderId,
    amount: liraComma(e.amountKurus),
    currencyCode: CURRENCY_TL,
    authCode: e.authCode,
    tranDate: tranDate(e.atMs),
    state: e.state,
    txnStatus: "1",
    hostlogkey: e.hostlogkey,
  }));
  return { fields: { approved: "1", respCode: "", respText: "", transactions: { transaction } }, commit: nothing, faultKurus: null };
}

const done = (order: Order, state: Entry["state"]) => order.entries.filter((e) => e.state === state);
const remaining = (order: Order) => (order.entries[0]?.amountKurus ?? 0) - done(order, "Return").reduce((sum, e) => sum + e.amountKurus, 0);

const approvedEntry = (order: Order, e: Entry, faultKurus: number): Outcome => ({
  fields: { approved: "1", respCode: "", respText: "", hostlogkey: e.hostlogkey, authCode: e.authCode },
  commit: () => void order.entries.push(e),
  faultKurus,
});

/** Void: the whole sale, on its Istanbul day only, before any return. */
export function reverse(state: PosnetSimState, account: PosnetSimAccount, orderId: string): Outcome {
  const order = state.order(account.merchantId, orderId);
  if (!order) return NOT_FOUND();
  const sale = order.entries[0] as Entry;
  const fault = sale.amountKurus;
  if (done(order, "Reverse").length > 0) return refused("0128", "İŞLEM DAHA ÖNCE İPTAL EDİLMİŞ", fault);
  if (istanbulDay(sale.atMs) !== istanbulDay(state.nowMs())) return refused("0130", "GÜN SONU YAPILMIŞ İŞLEM İPTAL EDİLEMEZ", fault);
  if (done(order, "Return").length > 0) return refused("0131", "İADESİ OLAN İŞLEM İPTAL EDİLEMEZ", fault);
  if (order.profile === "refund_declined") return refused("0057", "KARTIN İŞLEM İZNİ YOK", fault);
  return approvedEntry(order, entry("Reverse", sale.amountKurus, state.nowMs()), fault);
}

/** Refund of part or all of a sale that was not reversed. */
export function giveBack(state: PosnetSimState, account: PosnetSimAccount, orderId: string, amount: string): Outcome {
  const kurus = /^\d{1,12}$/.test(amount) ? Number(amount) : null;
  if (kurus === null || kurus === 0) return refused("0012", "TUTAR HATALI");
  const order = state.order(account.merchantId, orderId);
  if (!order) return NOT_FOUND();
  if (done(order, "Reverse").length > 0) return refused("0128", "İŞLEM İPTAL EDİLMİŞ", kurus);
  if (kurus > remaining(order)) return refused("0129", "İADE TUTARI İŞLEM TUTARINI AŞIYOR", kurus);
  if (order.profile === "refund_declined") return refused("0057", "KARTIN İŞLEM İZNİ YOK", kurus);
  return approvedEntry(order, entry("Return", kurus, state.nowMs()), kurus);
}
