import { toLira } from "../../lira";
import type { BankGateway, CaptureInput, CaptureResult, Start3dInput, Start3dResult } from "../gateway";
import { readEnrollment, readSearch, readVposResponse, SUCCESS, type VposAnswer } from "./answers";
import { readPayflexProfile, takeCard, verifyPayflexCallback } from "./callback";
import type { PayflexConfig } from "./config";
import { refundCalls } from "./refunds";
import { saleOf, search } from "./search";
import { brandOf, CURRENCY_TRY, enrollmentFields, saleXml, searchXml } from "./requests";
import { encodeForm, postForm, prmstrBody, type PayflexTransport } from "./wire";

// The PayFlex (VakıfBank VPOS 7/24) adapter of one connection (docs/banks-payflex.md). The 3D start
// is kasa's own server-to-server enrollment; the callback is unsigned, so it is bound to that
// enrollment (callback.ts) and only the VPOS answer to kasa's own Sale makes a capture. A capture's
// bankReference is the attempt id, the Sale's TransactionId, which Cancel, Refund and Search name.

/**
 * The buyer's IP the VPOS asks for (`ClientIp`): kasa's gateway hands adapters none, so it is left
 * empty (docs/banks-payflex.md, "What kasa assumed").
 */
const CLIENT_IP = "";

async function start3d(config: PayflexConfig, transport: PayflexTransport, input: Start3dInput): Promise<Start3dResult> {
  const pan = input.card.pan.reveal();
  const brand = brandOf(pan);
  if (brand === null) return { kind: "declined" };
  const body = encodeForm(
    enrollmentFields(config, {
      id: input.attemptId,
      amount: input.amount,
      installment: input.installment,
      callbackUrl: input.callbackUrl,
      pan,
      expiry: `${input.card.expireYear.reveal()}${input.card.expireMonth.reveal()}`,
      brand,
    }),
  );
  const text = await postForm(config.mpiUrl, body, config.timeoutMs, transport);
  const answer = text === null ? null : readEnrollment(text);
  // No answer or an unreadable one: the MPI never had the attempt (a router tries its next member).
  if (answer === null) return { kind: "unavailable", detail: "the MPI's enrollment answer was missing or unreadable" };
  // Not enrolled or an error: nothing can move without kasa's Sale, which it never sends.
  if (answer.status !== "Y" || !isHttpUrl(answer.acsUrl)) return { kind: "declined" };
  return { kind: "form", action: answer.acsUrl, fields: { PaReq: answer.paReq, TermUrl: answer.termUrl, MD: answer.md } };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

/** A `0000` counts only as the answer to this Sale: every echo present must be the attempt's. */
function echoesMatch(answer: VposAnswer, input: CaptureInput): boolean {
  const same = (name: string, expected: string) => !answer.has(name) || answer.get(name) === expected;
  return (
    same("TransactionType", "Sale") &&
    same("TransactionId", input.attemptId) &&
    same("OrderId", input.attemptId) &&
    same("CurrencyAmount", toLira(input.amount)) &&
    same("CurrencyCode", CURRENCY_TRY)
  );
}

export function saleOutcome(answer: VposAnswer | null, input: CaptureInput): CaptureResult {
  if (answer === null) return { approved: null, detail: "no readable answer to Sale" };
  const code = answer.get("ResultCode") ?? "";
  if (code === SUCCESS) {
    if (!echoesMatch(answer, input)) return { approved: null, detail: "a 0000 answer for another order or amount" };
    return { approved: true, authCode: answer.get("AuthCode") ?? "", bankReference: input.attemptId };
  }
  return {
    approved: false,
    reason: code === "0051" ? "insufficient_funds" : "declined",
    procReturnCode: code,
    errMsg: answer.get("ResultDetail") || null,
  };
}

async function capture(config: PayflexConfig, transport: PayflexTransport, input: CaptureInput): Promise<CaptureResult> {
  const profile = readPayflexProfile(input.bankProfile);
  const card = takeCard(input.attemptId);
  // Without the callback's card there is no Sale to send: nothing was charged.
  if (profile === null || card === null) return { approved: false, reason: "not_authenticated" };
  const xml = saleXml(config, {
    attemptId: input.attemptId,
    amount: input.amount,
    installment: input.installment,
    eci: profile.eci,
    cavv: profile.cavv,
    clientIp: CLIENT_IP,
    pan: card.pan,
    expiry: `20${card.expiry}`,
  });
  return saleOutcome(readVposResponse(await postForm(config.vposUrl, prmstrBody(xml), config.timeoutMs, transport)), input);
}

/** A Sale whose answer was lost: Search says captured, failed (or cancelled), or still unknown. */
async function saleStatus(config: PayflexConfig, transport: PayflexTransport, input: CaptureInput): Promise<CaptureResult> {
  const items = await search(config, transport, input.attemptId);
  if (items === null) return { approved: null, detail: "no usable Search answer" };
  const sale = saleOf(items, input.attemptId);
  if (sale === undefined) return { approved: false, reason: "declined", errMsg: "no record at the bank" };
  if (sale.resultCode !== SUCCESS) return { approved: false, reason: "declined", procReturnCode: sale.resultCode, errMsg: "Sale declined" };
  if (sale.canceled || sale.reversed) return { approved: false, reason: "declined", errMsg: "the sale is cancelled at the bank" };
  if (sale.amount !== null && sale.amount !== input.amount) return { approved: null, detail: "Search shows another amount" };
  return { approved: true, authCode: sale.authCode, bankReference: input.attemptId };
}

export function createPayflexAdapter(config: PayflexConfig, transport: PayflexTransport, acsOrigin: string): BankGateway {
  return {
    bank: "payflex",
    acsOrigin,
    start3d: (input) => start3d(config, transport, input),
    verifyCallback: async (callback, context) => verifyPayflexCallback(config, callback.raw, context),
    capture: (input) => capture(config, transport, input),
    captureStatus: (input) => saleStatus(config, transport, input),
    ...refundCalls(config, transport, CLIENT_IP),
  };
}

/** `kasa connections check`: a Search for a fresh id, which moves no money and makes no MPI record. */
export async function checkPayflexConnection(config: PayflexConfig, transport: PayflexTransport, id: string, nowMs: () => number) {
  const started = nowMs();
  const answer = readSearch(await postForm(config.searchUrl, prmstrBody(searchXml(config, id, id)), config.timeoutMs, transport));
  const latencyMs = nowMs() - started;
  if (answer === null) return { answered: false, credentialsAccepted: null, latencyMs, message: "no readable answer" };
  if (answer.ok) return { answered: true, credentialsAccepted: true, latencyMs, message: "" };
  return { answered: true, credentialsAccepted: false, latencyMs, message: `${answer.code}: ${answer.message}` };
}
