import type { BankFormFields, BankGateway, CaptureInput, RefundInput, RefundResult, Start3dInput, Start3dResult } from "../gateway";
import { captureAnswer, countOf, refundAnswer, refundResult, statusAnswer } from "./answers";
import { attemptMac, readPosnetProfile, verifyPosnetCallback } from "./callback";
import type { PosnetConfig } from "./config";
import { CURRENCY_TL, expDateOf, installmentOf, minorAmount, orderIdOf, xidOf } from "./ids";
import { callPosnet, type PosnetTransport } from "./wire";
import { child, textOf } from "./xml";

// The YapıKredi Posnet adapter of one connection (docs/banks-posnet.md), the 3D model: the card goes
// to the bank server to server (`oosRequestData`) before the buyer leaves, the browser carries three
// opaque strings to the bank's 3D page, the callback is resolved (`oosResolveMerchantData`, its MAC
// verified) and the charge is one `oosTranData`. The attempt's XID names the order everywhere; a
// capture's bankReference is `TDSC` + XID, what agreement, reverse and return take.

/** Step 1. Any failure here happens before the buyer leaves and before any charge: a clean decline. */
async function start3d(config: PosnetConfig, transport: PosnetTransport, input: Start3dInput): Promise<Start3dResult> {
  const answer = await callPosnet(config, transport, {
    oosRequestData: {
      posnetid: config.posnetId,
      ccno: input.card.pan.reveal(),
      expDate: expDateOf(input.card.expireYear.reveal(), input.card.expireMonth.reveal()),
      cvc: input.card.cv2.reveal(),
      amount: minorAmount(input.amount),
      currencyCode: CURRENCY_TL,
      installment: installmentOf(input.installment),
      XID: xidOf(input.attemptId),
      cardHolderName: "",
      tranType: "Sale",
    },
  });
  // No answer or an unreadable one: the bank never had the attempt (a router tries its next member).
  if (answer === null) return { kind: "unavailable", detail: "oosRequestData got no readable answer" };
  const block = child(answer, "oosRequestDataResponse");
  const data1 = textOf(block, "data1");
  const data2 = textOf(block, "data2");
  const sign = textOf(block, "sign");
  if (textOf(answer, "approved") !== "1" || !data1 || !data2 || !sign) return { kind: "declined" };
  return { kind: "form", action: config.gateUrl, fields: formOf(config, input.callbackUrl, data1, data2, sign) };
}

/** Step 2: the browser form to the bank's 3D page, in the bank's field order; no card data in it. */
export const formOf = (config: PosnetConfig, callbackUrl: string, data1: string, data2: string, sign: string): BankFormFields => ({
  mid: config.merchantId,
  posnetID: config.posnetId,
  posnetData: data1,
  posnetData2: data2,
  digest: sign,
  merchantReturnURL: callbackUrl,
  url: "",
  lang: config.lang,
});

async function capture(config: PosnetConfig, transport: PosnetTransport, input: CaptureInput) {
  const profile = readPosnetProfile(input.bankProfile);
  if (profile === null) return { approved: false as const, reason: "not_authenticated" as const };
  const xid = xidOf(input.attemptId);
  const answer = await callPosnet(config, transport, {
    oosTranData: { ...profile, wpAmount: "0", mac: attemptMac(config, xid, input.amount) },
  });
  return captureAnswer(answer, orderIdOf(xid));
}

const agreement = (config: PosnetConfig, transport: PosnetTransport, orderId: string) =>
  callPosnet(config, transport, { agreement: { orderID: orderId } });

// Refunds. Posnet has no idempotency key, so before a reverse or return kasa records how to find
// out what became of it (`refundMarker`): `?reverse` (agreement lists a reverse) or `?return:<n>`
// (agreement lists more than the n returns it had). A lost answer, or a crash after sending, is
// then resolved by asking, never by sending again.
const REVERSE_PENDING = "?reverse";
const RETURN_PENDING = "?return:";

async function refundStatus(config: PosnetConfig, transport: PosnetTransport, orderId: string, marker: string): Promise<RefundResult> {
  const answer = await agreement(config, transport, orderId);
  const state = marker.startsWith(RETURN_PENDING) ? "Return" : "Reverse";
  const now = countOf(answer, state);
  if (now === null) return refundResult("pending", null, marker);
  const before = state === "Return" ? Number(marker.slice(RETURN_PENDING.length)) : 0;
  if (now > before) return refundResult("approved", null, null);
  return { ...refundResult("declined", null, null), errMsg: `no ${state.toLowerCase()} recorded at the bank` };
}

export function createPosnetAdapter(config: PosnetConfig, transport: PosnetTransport): BankGateway {
  return {
    bank: "posnet",
    acsOrigin: new URL(config.gateUrl).origin,
    start3d: (input) => start3d(config, transport, input),
    verifyCallback: (callback, context) => verifyPosnetCallback(config, transport, callback.raw, context),
    capture: (input) => capture(config, transport, input),
    captureStatus: async (input) => {
      const orderId = orderIdOf(xidOf(input.attemptId));
      return statusAnswer(await agreement(config, transport, orderId), orderId);
    },
    refundMarker: async (kind, input) => {
      if (kind === "void") return REVERSE_PENDING;
      const before = countOf(await agreement(config, transport, input.bankReference), "Return");
      return before === null ? null : `${RETURN_PENDING}${before}`;
    },
    void: async (input: RefundInput) =>
      refundAnswer(
        await callPosnet(config, transport, { tranDateRequired: "1", reverse: { transaction: "sale", orderID: input.bankReference } }),
      ),
    refund: async (input: RefundInput) =>
      refundAnswer(
        await callPosnet(config, transport, {
          tranDateRequired: "1",
          return: { amount: minorAmount(input.amount), currencyCode: CURRENCY_TL, orderID: input.bankReference },
        }),
      ),
    refundStatus: (input) => refundStatus(config, transport, input.bankReference, input.refundReference),
  };
}

/** `kasa connections check`: agreement for an order that does not exist; "not found" means the credentials passed. */
export async function checkPosnetConnection(config: PosnetConfig, transport: PosnetTransport, orderId: string, nowMs: () => number) {
  const started = nowMs();
  const answer = await agreement(config, transport, orderId);
  const latencyMs = nowMs() - started;
  if (answer === null) return { answered: false, credentialsAccepted: null, latencyMs, message: "no readable answer" };
  const code = textOf(answer, "respCode") ?? "";
  const message = `${code} ${textOf(answer, "respText") ?? ""}`.trim();
  const accepted = textOf(answer, "approved") === "1" || code === "0123";
  return { answered: true, credentialsAccepted: accepted, latencyMs, message };
}
