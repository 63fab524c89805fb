import type { BankGateway, CaptureInput, CaptureResult, RefundInput, RefundResult } from "../gateway";
import {
  APPROVED,
  bankReferenceOf,
  captureAnswer,
  codeOf,
  countInHistory,
  errMsgOf,
  orderInqAnswer,
  readBankReference,
  refundAnswer,
  refundResult,
} from "./answers";
import { readGarantiProfile, verifyGarantiCallback } from "./callback";
import type { GarantiConfig } from "./config";
import { CUSTOMER_IP, formOf } from "./form";
import { orderIdOf, toInstallment, toMinor } from "./order-id";
import { queryInput } from "./requests";
import { callGaranti, type GarantiTransport } from "./wire";
import { xmlText } from "./xml";

// The Garanti BBVA GVP adapter of one connection (docs/banks-garanti.md). The attempt id without
// its separator is the bank's order id; a capture's bankReference is `<orderid>:<RetrefNum>`,
// because void and refund name the sale by both.

async function capture(config: GarantiConfig, transport: GarantiTransport, input: CaptureInput): Promise<CaptureResult> {
  const profile = readGarantiProfile(input.bankProfile);
  if (profile === null) return { approved: false, reason: "not_authenticated" };
  const orderId = orderIdOf(input.attemptId);
  if (profile.model === "3d_pay") {
    // The gate charged during 3D; the signed callback carries its answer.
    if (profile.procReturnCode === APPROVED && profile.response === "Approved") {
      return { approved: true, authCode: profile.authCode, bankReference: bankReferenceOf(orderId, profile.hostRefNum) };
    }
    return {
      approved: false,
      reason: profile.procReturnCode === "51" ? "insufficient_funds" : "declined",
      procReturnCode: profile.procReturnCode || null,
      errMsg: profile.errMsg || null,
    };
  }
  const answer = await callGaranti(config, transport, {
    type: "sales",
    orderId,
    amount: toMinor(input.amount),
    installment: toInstallment(input.installment),
    ip: profile.ip || CUSTOMER_IP,
    secure3d: { cavv: profile.cavv, eci: profile.eci, xid: profile.xid, md: profile.md },
  });
  return captureAnswer(answer, orderId);
}

const orderInq = async (config: GarantiConfig, transport: GarantiTransport, orderId: string, amount: number | null) =>
  orderInqAnswer(await callGaranti(config, transport, queryInput("orderinq", orderId)), orderId, amount);

// Refunds. Garanti has no idempotency key, so before a void or refund is sent kasa records how to
// find out what became of it (`refundMarker`): `?void` (the order's history shows a void) or
// `?refund:N` (the history shows more than the N refunds it had). A lost answer, or a crash after
// sending, is then resolved by asking, never by sending again.
const VOID_PENDING = "?void";
const REFUND_PENDING = "?refund:";

const history = async (config: GarantiConfig, transport: GarantiTransport, orderId: string, type: "void" | "refund") =>
  countInHistory(await callGaranti(config, transport, queryInput("orderhistoryinq", orderId)), type);

async function refundStatus(config: GarantiConfig, transport: GarantiTransport, reference: string, marker: string): Promise<RefundResult> {
  const { orderId } = readBankReference(reference);
  const isRefund = marker.startsWith(REFUND_PENDING);
  const before = isRefund ? Number(marker.slice(REFUND_PENDING.length)) : 0;
  const now = await history(config, transport, orderId, isRefund ? "refund" : "void");
  if (now === null) return refundResult("pending", null, marker);
  if (now > before) return refundResult("approved", null, null);
  return { ...refundResult("declined", null, null), errMsg: `no ${isRefund ? "refund" : "void"} recorded at the bank` };
}

function send(config: GarantiConfig, transport: GarantiTransport, type: "void" | "refund", input: RefundInput) {
  const { orderId, retrefNum } = readBankReference(input.bankReference);
  return callGaranti(config, transport, {
    type,
    orderId,
    amount: toMinor(input.amount),
    installment: "",
    ip: CUSTOMER_IP,
    originalRetrefNum: retrefNum,
  });
}

export function createGarantiAdapter(config: GarantiConfig, transport: GarantiTransport): BankGateway {
  return {
    bank: "garanti",
    acsOrigin: new URL(config.gateUrl).origin,
    chargesAtGate: config.model === "3d_pay",
    start3d: async (input) => ({ kind: "form", action: config.gateUrl, fields: formOf(config, input) }),
    verifyCallback: async (callback, context) => verifyGarantiCallback(config, callback.raw, context),
    capture: (input) => capture(config, transport, input),
    captureStatus: (input) => orderInq(config, transport, orderIdOf(input.attemptId), input.amount),
    refundMarker: async (kind, input) => {
      if (kind === "void") return VOID_PENDING;
      const before = await history(config, transport, readBankReference(input.bankReference).orderId, "refund");
      return before === null ? null : `${REFUND_PENDING}${before}`;
    },
    void: async (input) => refundAnswer(await send(config, transport, "void", input)),
    refund: async (input) => refundAnswer(await send(config, transport, "refund", input)),
    refundStatus: (input) => refundStatus(config, transport, input.bankReference, input.refundReference),
  };
}

/** `kasa connections check`: an `orderinq` for a fresh order id; "not found" means the credentials were accepted. */
export async function checkGarantiConnection(config: GarantiConfig, transport: GarantiTransport, orderId: string, nowMs: () => number) {
  const started = nowMs();
  const answer = await callGaranti(config, transport, queryInput("orderinq", orderId));
  const latencyMs = nowMs() - started;
  const code = answer === null ? null : codeOf(answer);
  if (answer === null || code === null) return { answered: false, credentialsAccepted: null, latencyMs, message: "no readable answer" };
  const reason = xmlText(answer, "Transaction/Response/ReasonCode") ?? "";
  const accepted = code === APPROVED || (code === "92" && (reason === "0110" || reason === "0108"));
  return { answered: true, credentialsAccepted: accepted, latencyMs, message: errMsgOf(answer) ?? "" };
}
