import type { BankGateway, RefundInput, RefundResult } from "../gateway";
import { readVposResponse, SUCCESS, type VposAnswer } from "./answers";
import { saleOf, search } from "./search";
import type { PayflexConfig } from "./config";
import { cancelXml, refundXml } from "./requests";
import { postForm, prmstrBody, type PayflexTransport } from "./wire";

// Cancel (void, before the batch closes) and Refund (credit, full or partial, after it), both by
// the sale's TransactionId. PayFlex has no idempotency key, so before either is sent kasa records a
// marker saying how to find out what became of it (`refundMarker`): `?void` (Search shows the sale
// cancelled) or `?refund:<kuruş refunded before>` (Search shows a larger TotalRefundAmount). A lost
// answer, or a crash after sending, is then resolved by asking, never by sending again.

const VOID_PENDING = "?void";
const REFUND_PENDING = "?refund:";

const result = (status: RefundResult["status"], answer: VposAnswer | null, reference: string | null): RefundResult => ({
  status,
  procReturnCode: answer?.get("ResultCode") ?? null,
  authCode: status === "approved" ? answer?.get("AuthCode") || null : null,
  errMsg: answer && status === "declined" ? answer.get("ResultDetail") || null : null,
  bankReference: reference,
  nextCheckAtMs: null,
});

function answerOf(answer: VposAnswer | null): RefundResult {
  // No readable answer: still pending under the marker recorded before the call, asked about later.
  if (answer === null) return result("pending", null, null);
  const reference = answer.get("Rrn") || answer.get("TransactionId") || null;
  return result(answer.get("ResultCode") === SUCCESS ? "approved" : "declined", answer, reference);
}

/** What Search says of a void or refund sent under `marker`; pending while it cannot say. */
async function askAbout(config: PayflexConfig, transport: PayflexTransport, input: { bankReference: string }, marker: string) {
  const items = await search(config, transport, input.bankReference);
  const sale = items === null ? undefined : saleOf(items, input.bankReference);
  if (items === null) return result("pending", null, marker);
  if (marker === VOID_PENDING) {
    return sale?.canceled
      ? result("approved", null, null)
      : { ...result("declined", null, null), errMsg: "the sale is not cancelled at the bank" };
  }
  const before = Number(marker.slice(REFUND_PENDING.length));
  return (sale?.totalRefund ?? 0) > before
    ? result("approved", null, null)
    : { ...result("declined", null, null), errMsg: "no refund recorded at the bank" };
}

export function refundCalls(
  config: PayflexConfig,
  transport: PayflexTransport,
  clientIp: string,
): Pick<BankGateway, "void" | "refund" | "refundMarker" | "refundStatus"> {
  const send = (xml: string) => postForm(config.vposUrl, prmstrBody(xml), config.timeoutMs, transport);
  return {
    refundMarker: async (kind, input) => {
      if (kind === "void") return VOID_PENDING;
      const items = await search(config, transport, input.bankReference);
      if (items === null) return null;
      return `${REFUND_PENDING}${saleOf(items, input.bankReference)?.totalRefund ?? 0}`;
    },
    void: async (input: RefundInput) => answerOf(readVposResponse(await send(cancelXml(config, input.bankReference, clientIp)))),
    refund: async (input: RefundInput) =>
      answerOf(readVposResponse(await send(refundXml(config, input.bankReference, input.amount, clientIp)))),
    refundStatus: (input) => askAbout(config, transport, input, input.refundReference),
  };
}
