import { randomBytes } from "node:crypto";
import { sensitive } from "../../sensitive";
import type { BankFormFields, BankGateway, CaptureInput, CaptureResult, RefundInput, RefundResult, Start3dInput } from "../gateway";
import { toLira } from "../../lira";
import { fromMinor, toTaksit } from "./amounts";
import { callEst, errMsgOf, extra, text, type EstAnswer, type EstTransport } from "./api";
import { readEstProfile, verifyEstCallback } from "./callback";
import type { EstConfig } from "./config";
import { oidOf } from "./oid";
import { ver3HashOfStrings } from "./hash";

// The EST / NestPay adapter of one connection (docs/banks.md). kasa's attempt id is the bank's `oid`,
// and a capture's bankReference is that oid: Void, Credit and ORDERSTATUS all name the order by it.

const APPROVED = "00";

/** 3D start: the auto-submitting form to the gate, every field signed with ver3 (docs/banks.md). */
function formOf(config: EstConfig, input: Start3dInput): BankFormFields {
  const plain: Array<[string, string]> = [
    ["clientid", config.clientId],
    ["storetype", config.model],
    ["amount", toLira(input.amount)],
    ["oid", oidOf(input.attemptId)],
    ["okUrl", input.callbackUrl],
    ["failUrl", input.callbackUrl],
    ["rnd", randomBytes(12).toString("hex").toUpperCase()],
    ["lang", config.lang],
    ["currency", "949"],
    ["taksit", toTaksit(input.installment)],
    ["TranType", "Auth"],
    ["hashAlgorithm", "ver3"],
  ];
  const card: Array<[string, string]> = [
    ["pan", input.card.pan.reveal()],
    ["Ecom_Payment_Card_ExpDate_Month", input.card.expireMonth.reveal()],
    ["Ecom_Payment_Card_ExpDate_Year", input.card.expireYear.reveal()],
    ["cv2", input.card.cv2.reveal()],
  ];
  const hash = ver3HashOfStrings([...plain, ...card], config.storeKey);
  return {
    ...Object.fromEntries(plain),
    pan: input.card.pan,
    Ecom_Payment_Card_ExpDate_Month: input.card.expireMonth,
    Ecom_Payment_Card_ExpDate_Year: input.card.expireYear,
    cv2: input.card.cv2,
    hash: sensitive(hash),
  };
}

const approvedOf = (answer: EstAnswer, oid: string): CaptureResult => ({
  approved: true,
  authCode: text(answer, "AuthCode") ?? "",
  bankReference: oid,
});

function captureAnswer(answer: EstAnswer | null, oid: string): CaptureResult {
  if (answer === null) return { approved: null, detail: "no readable answer to Auth" };
  const code = text(answer, "ProcReturnCode");
  if (code === APPROVED) return approvedOf(answer, oid);
  return { approved: false, reason: code === "51" ? "insufficient_funds" : "declined", procReturnCode: code, errMsg: errMsgOf(answer) };
}

/** ORDERSTATUS for the oid: approved there is captured, no record is failed, else still unknown. */
async function orderStatus(config: EstConfig, transport: EstTransport, oid: string): Promise<CaptureResult> {
  const answer = await callEst(config, transport, { OrderId: oid, Extra: { ORDERSTATUS: "QUERY" } });
  if (answer === null) return { approved: null, detail: "no readable answer to ORDERSTATUS" };
  if (/^No record found/i.test(text(answer, "ErrMsg") ?? ""))
    return { approved: false, reason: "declined", errMsg: "no record at the bank" };
  const stat = extra(answer, "TRANS_STAT");
  if ((stat === "A" || stat === "S" || stat === "C") && (extra(answer, "PROC_RET_CD") ?? APPROVED) === APPROVED) {
    return { approved: true, authCode: extra(answer, "AUTH_CODE") ?? "", bankReference: oid };
  }
  if (stat === "D" || stat === "ERR" || stat === "V" || stat === "CNCL")
    return { approved: false, reason: "declined", errMsg: `TRANS_STAT ${stat}` };
  return { approved: null, detail: `ORDERSTATUS answered TRANS_STAT ${stat ?? "none"}` };
}

async function capture(config: EstConfig, transport: EstTransport, input: CaptureInput): Promise<CaptureResult> {
  const profile = readEstProfile(input.bankProfile);
  if (profile === null) return { approved: false, reason: "not_authenticated" };
  if (profile.model === "3d_pay") {
    // The bank authorised during 3D; the signed callback carries its answer.
    if (profile.procReturnCode === APPROVED) return { approved: true, authCode: profile.authCode, bankReference: oidOf(input.attemptId) };
    return {
      approved: false,
      reason: profile.procReturnCode === "51" ? "insufficient_funds" : "declined",
      procReturnCode: profile.procReturnCode,
      errMsg: profile.errMsg || null,
    };
  }
  const answer = await callEst(config, transport, {
    Type: "Auth",
    IPAddress: "",
    OrderId: oidOf(input.attemptId),
    Total: toLira(input.amount),
    Currency: "949",
    Taksit: toTaksit(input.installment),
    Number: profile.md,
    PayerTxnId: profile.xid,
    PayerSecurityLevel: profile.eci,
    PayerAuthenticationCode: profile.cavv,
    Mode: "P",
  });
  return captureAnswer(answer, oidOf(input.attemptId));
}

// Refunds. Before a Void or Credit is sent, kasa records a marker that says how to find out what
// became of it (`refundMarker`): `?void` (ORDERSTATUS shows V) or `?credit:<n>` (ORDERHISTORY shows
// more than the n credits it had). A lost answer, or a crash after sending, is then resolved by
// asking, never by sending the refund again.
const VOID_PENDING = "?void";
const CREDIT_PENDING = "?credit:";

const refundResult = (status: RefundResult["status"], answer: EstAnswer | null, reference: string | null): RefundResult => ({
  status,
  procReturnCode: answer ? text(answer, "ProcReturnCode") : null,
  authCode: answer ? text(answer, "AuthCode") || null : null,
  errMsg: answer && status === "declined" ? errMsgOf(answer) : null,
  bankReference: reference,
  nextCheckAtMs: null,
});

function refundAnswer(answer: EstAnswer | null): RefundResult {
  if (answer === null) return refundResult("pending", null, null);
  if (text(answer, "ProcReturnCode") === APPROVED) return refundResult("approved", answer, text(answer, "HostRefNum") || null);
  return refundResult("declined", answer, text(answer, "HostRefNum") || null);
}

async function credits(config: EstConfig, transport: EstTransport, oid: string): Promise<number | null> {
  const answer = await callEst(config, transport, { OrderId: oid, Extra: { ORDERHISTORY: "QUERY" } });
  if (answer === null) return null;
  const count = fromMinor(extra(answer, "TRXCOUNT")) ?? 0;
  let n = 0;
  for (let i = 1; i <= count; i++) if ((extra(answer, `TRX${i}`) ?? "").split("\t")[0] === "C") n++;
  return n;
}

async function refundStatus(config: EstConfig, transport: EstTransport, oid: string, reference: string): Promise<RefundResult> {
  if (reference.startsWith(CREDIT_PENDING)) {
    const before = Number(reference.slice(CREDIT_PENDING.length));
    const now = await credits(config, transport, oid);
    if (now === null) return refundResult("pending", null, reference);
    return now > before
      ? refundResult("approved", null, null)
      : { ...refundResult("declined", null, null), errMsg: "no credit recorded at the bank" };
  }
  const status = await orderStatus(config, transport, oid);
  if (status.approved === null) return refundResult("pending", null, reference);
  const voided = status.approved === false && /TRANS_STAT (V|CNCL)/.test(status.errMsg ?? "");
  return voided
    ? refundResult("approved", null, null)
    : { ...refundResult("declined", null, null), errMsg: "the order is not voided at the bank" };
}

export function createEstAdapter(config: EstConfig, transport: EstTransport): BankGateway {
  return {
    bank: "est",
    acsOrigin: new URL(config.gateUrl).origin,
    chargesAtGate: config.model === "3d_pay",
    start3d: async (input) => ({ kind: "form", action: config.gateUrl, fields: formOf(config, input) }),
    verifyCallback: async (callback, context) => verifyEstCallback(config, callback.raw, context),
    capture: (input) => capture(config, transport, input),
    captureStatus: (input) => orderStatus(config, transport, oidOf(input.attemptId)),
    refundMarker: async (kind, input) => {
      if (kind === "void") return VOID_PENDING;
      const before = await credits(config, transport, input.bankReference);
      return before === null ? null : `${CREDIT_PENDING}${before}`;
    },
    void: async (input: RefundInput) => refundAnswer(await callEst(config, transport, { Type: "Void", OrderId: input.bankReference })),
    refund: async (input: RefundInput) =>
      refundAnswer(
        await callEst(config, transport, { Type: "Credit", OrderId: input.bankReference, Total: toLira(input.amount), Currency: "949" }),
      ),
    refundStatus: (input) => refundStatus(config, transport, input.bankReference, input.refundReference),
  };
}

/** `kasa connections check`: whether the bank answers, accepts the credentials, and how fast. */
export async function checkEstConnection(config: EstConfig, transport: EstTransport, oid: string, nowMs: () => number) {
  const started = nowMs();
  const answer = await callEst(config, transport, { OrderId: oid, Extra: { ORDERSTATUS: "QUERY" } });
  const latencyMs = nowMs() - started;
  if (answer === null) return { answered: false, credentialsAccepted: null, latencyMs, message: "no readable answer" };
  const message = errMsgOf(answer) ?? "";
  const accepted = /^No record found|^Record\(s\) found/i.test(text(answer, "ErrMsg") ?? "");
  return { answered: true, credentialsAccepted: accepted, latencyMs, message };
}
