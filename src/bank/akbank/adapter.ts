import { sensitive } from "../../sensitive";
import { toLira } from "../../lira";
import type { BankFormFields, BankGateway, CaptureInput, CaptureResult, RefundInput, RefundResult, Start3dInput } from "../gateway";
import { toInstallCount } from "./amounts";
import { APPROVED, readAkbankProfile, verifyAkbankCallback } from "./callback";
import { type AkbankConfig, processUrl } from "./config";
import { formHash } from "./crypt";
import { isVoided, orderHistory, refundCount, saleOutcome } from "./history";
import { oidOf } from "./oid";
import { type Envelope, refundBody, saleBody, voidBody } from "./requests";
import { type AkbankAnswer, type AkbankTransport, callAkbank, messageOf, obj, str } from "./wire";
import { randomNumber, requestDateTime } from "./wire-time";

// The AkbankPos adapter of one connection (docs/banks-akbank.md). kasa's attempt id is the bank's
// `orderId`, and a capture's bankReference is that order id: void (1003), refund (1002) and the
// order history (1010) all name the order by it.

export interface AkbankEnv extends AkbankTransport {
  nowMs: () => number;
}

const PAYMENT_MODEL = { "3d": "3D", "3d_pay": "3D_PAY" } as const;

/** 3D start: the auto-submitting form to the gate, signed over its fixed field order. */
function formOf(config: AkbankConfig, input: Start3dInput): BankFormFields {
  const plain: Record<string, string> = {
    paymentModel: PAYMENT_MODEL[config.model],
    txnCode: "3000",
    merchantSafeId: config.merchantSafeId,
    terminalSafeId: config.terminalSafeId,
    orderId: oidOf(input.attemptId),
    lang: config.lang,
    amount: toLira(input.amount),
    currencyCode: "949",
    installCount: String(toInstallCount(input.installment)),
    okUrl: input.callbackUrl,
    failUrl: input.callbackUrl,
    ...(config.subMerchantId ? { subMerchantId: config.subMerchantId } : {}),
    randomNumber: randomNumber(),
    requestDateTime: requestDateTime(input.nowMs),
  };
  const expiredDate = `${input.card.expireMonth.reveal()}${input.card.expireYear.reveal()}`;
  const hash = formHash(config.secretKey, { ...plain, creditCard: input.card.pan.reveal(), expiredDate, cvv: input.card.cv2.reveal() });
  return { ...plain, creditCard: input.card.pan, expiredDate: sensitive(expiredDate), cvv: input.card.cv2, hash: sensitive(hash) };
}

function saleAnswer(answer: AkbankAnswer | null, orderId: string): CaptureResult {
  if (answer === null) return { approved: null, detail: "no readable answer to the sale (1000)" };
  const code = str(answer, "responseCode");
  if (code === APPROVED) return { approved: true, authCode: str(obj(answer, "transaction"), "authCode") ?? "", bankReference: orderId };
  if (code === null) return { approved: null, detail: "the sale's answer has no responseCode" };
  const host = str(answer, "hostResponseCode");
  return {
    approved: false,
    reason: host === "51" ? "insufficient_funds" : "declined",
    procReturnCode: host ?? code,
    errMsg: messageOf(answer),
  };
}

async function capture(config: AkbankConfig, env: AkbankEnv, input: CaptureInput): Promise<CaptureResult> {
  const profile = readAkbankProfile(input.bankProfile);
  const orderId = oidOf(input.attemptId);
  if (profile === null) return { approved: false, reason: "not_authenticated" };
  if (profile.model === "3d_pay") {
    // The bank authorised during 3D; the signed callback carries its answer.
    if (profile.responseCode === APPROVED) return { approved: true, authCode: profile.authCode, bankReference: orderId };
    const host = profile.hostResponseCode || null;
    return {
      approved: false,
      reason: host === "51" ? "insufficient_funds" : "declined",
      procReturnCode: host ?? profile.responseCode,
      errMsg: profile.message || null,
    };
  }
  const { model: _model, ...secure } = profile;
  const body = saleBody(config, { nowMs: env.nowMs() }, { orderId, amount: input.amount, installment: input.installment, secure });
  return saleAnswer(await callAkbank(config, env, processUrl(config), body), orderId);
}

// Refunds. AkbankPos has no idempotency key: before a void or refund is sent, kasa records a
// marker that says how to find out what became of it (`refundMarker`): `?void` (the history shows
// the sale V) or `?refund:<n>` (the history shows more than the n approved refunds it had). A lost
// answer, or a crash after sending, is then resolved by asking, never by sending again.
const VOID_PENDING = "?void";
const REFUND_PENDING = "?refund:";

const refundResult = (status: RefundResult["status"], answer: AkbankAnswer | null, reference: string | null): RefundResult => ({
  status,
  procReturnCode: answer ? str(answer, "responseCode") : null,
  authCode: answer ? str(obj(answer, "transaction"), "authCode") || null : null,
  errMsg: answer && status === "declined" ? messageOf(answer) : null,
  bankReference: reference,
  nextCheckAtMs: null,
});

function refundAnswer(answer: AkbankAnswer | null, orderId: string): RefundResult {
  if (answer === null || str(answer, "responseCode") === null) return refundResult("pending", null, null);
  const rrn = str(obj(answer, "transaction"), "rrn");
  if (str(answer, "responseCode") === APPROVED) return refundResult("approved", answer, rrn || orderId);
  return refundResult("declined", answer, rrn || null);
}

async function refundStatus(config: AkbankConfig, env: AkbankEnv, orderId: string, reference: string): Promise<RefundResult> {
  const history = await orderHistory(config, env, { nowMs: env.nowMs() }, orderId);
  if (history === null) return refundResult("pending", null, reference);
  if (reference.startsWith(REFUND_PENDING)) {
    const before = Number(reference.slice(REFUND_PENDING.length));
    const now = refundCount(history) ?? 0;
    return now > before
      ? refundResult("approved", null, orderId)
      : { ...refundResult("declined", null, null), errMsg: "no refund recorded at the bank" };
  }
  return isVoided(history)
    ? refundResult("approved", null, orderId)
    : { ...refundResult("declined", null, null), errMsg: "the order is not voided at the bank" };
}

const envelope = (env: AkbankEnv): Envelope => ({ nowMs: env.nowMs() });

export function createAkbankAdapter(config: AkbankConfig, env: AkbankEnv): BankGateway {
  const post = (body: ReturnType<typeof voidBody>) => callAkbank(config, env, processUrl(config), body);
  return {
    bank: "akbank",
    acsOrigin: new URL(config.gateUrl).origin,
    chargesAtGate: config.model === "3d_pay",
    start3d: async (input) => ({ kind: "form", action: config.gateUrl, fields: formOf(config, input) }),
    verifyCallback: async (callback, context) => verifyAkbankCallback(config, callback.raw, context),
    capture: (input) => capture(config, env, input),
    captureStatus: async (input) => {
      const orderId = oidOf(input.attemptId);
      return saleOutcome(await orderHistory(config, env, envelope(env), orderId), orderId);
    },
    refundMarker: async (kind, input) => {
      if (kind === "void") return VOID_PENDING;
      const before = refundCount(await orderHistory(config, env, envelope(env), input.bankReference));
      return before === null ? null : `${REFUND_PENDING}${before}`;
    },
    void: async (input: RefundInput) =>
      refundAnswer(await post(voidBody(config, { nowMs: input.nowMs }, input.bankReference)), input.bankReference),
    refund: async (input: RefundInput) =>
      refundAnswer(await post(refundBody(config, { nowMs: input.nowMs }, input.bankReference, input.amount)), input.bankReference),
    refundStatus: (input) => refundStatus(config, env, input.bankReference, input.refundReference),
  };
}
