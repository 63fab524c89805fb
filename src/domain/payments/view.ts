import { toIso } from "../../iso-time";
import { handoffUrlOf } from "./handoff-paths";
import type { PaymentRow } from "../../store/rows-money";

/** docs/contract.md, Create a payment. */
export type PaymentCreatedJson = {
  paymentCode: string;
  status: string;
  paymentRef: string;
  handoffUrl: string;
  idempotentReplay: boolean;
};

/**
 * What the refunds module hands to `toPaymentJson` for each refund of the payment (SEAM for the
 * refunds engineer: docs/contract.md#the-payment-record `refunds`, oldest first).
 */
export type RefundSummary = {
  refundId: string;
  amount: number;
  status: string;
  createdAtMs: number;
  updatedAtMs: number;
};

/** docs/contract.md#the-payment-record refund summary. */
export type RefundSummaryJson = { refundId: string; amount: number; status: string; createdAt: string; updatedAt: string };

/** The card and money fields docs/contract.md#the-payment-record shows as the payment row holds them. */
type PaymentCardAndMoney = Pick<
  PaymentRow,
  "maskedPan" | "cardFamily" | "cardBank" | "appliedRateBps" | "appliedFixedFee" | "commissionAmount" | "netToPartner" | "expectedValueDate"
>;

/** docs/contract.md, The payment record, field for field and nothing more (card brand and bank references stay inside). */
export type PaymentJson = {
  paymentCode: string;
  partnerTxCode: string;
  status: string;
  amount: number;
  currency: string;
  installmentCount: number;
} & PaymentCardAndMoney & { refunds: RefundSummaryJson[] };

/** docs/contract.md, Create a payment: a replay shows the payment's current status (4.5). */
export function toPaymentCreatedJson(payment: PaymentRow, replay: boolean, baseUrl: string): PaymentCreatedJson {
  return {
    paymentCode: payment.code,
    status: payment.status,
    paymentRef: payment.paymentRef,
    handoffUrl: handoffUrlOf(baseUrl),
    idempotentReplay: replay,
  };
}

export function toRefundSummaryJson(r: RefundSummary): RefundSummaryJson {
  return { refundId: r.refundId, amount: r.amount, status: r.status, createdAt: toIso(r.createdAtMs), updatedAt: toIso(r.updatedAtMs) };
}

/** docs/contract.md, The payment record. */
export function toPaymentJson(payment: PaymentRow, refunds: readonly RefundSummary[]): PaymentJson {
  return {
    paymentCode: payment.code,
    partnerTxCode: payment.partnerTxCode,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    installmentCount: payment.installment,
    maskedPan: payment.maskedPan,
    cardFamily: payment.cardFamily,
    cardBank: payment.cardBank,
    appliedRateBps: payment.appliedRateBps,
    appliedFixedFee: payment.appliedFixedFee,
    commissionAmount: payment.commissionAmount,
    netToPartner: payment.netToPartner,
    expectedValueDate: payment.expectedValueDate,
    refunds: refunds.map(toRefundSummaryJson),
  };
}
