import type * as v from "valibot";
import type { ErrorCode } from "../errors";
import * as r from "./records";

// Issue 21: what the route table does not say about each operation: its name, its success answers
// and the error codes it can answer with (each code's status comes from the error catalog). Keyed
// by the route table's "METHOD path"; a test checks that every route has an entry and no more.

export type OperationDoc = {
  operationId: string;
  summary: string;
  /** Success status -> body schema (null: no body). */
  responses: Record<number, v.GenericSchema | null>;
  errors: readonly ErrorCode[];
  /** Query parameters (GET lists): name -> JSON schema. */
  query?: Record<string, { schema: Record<string, unknown>; description: string }>;
};

/** Every API-key operation can answer these (docs/contract.md, Requests and authentication / Limits). */
export const COMMON_ERRORS: readonly ErrorCode[] = ["unauthorized", "rate_limited", "internal_error"];
/** Every operation that reads a body can answer these too. */
export const BODY_ERRORS: readonly ErrorCode[] = ["validation_error", "request_too_large"];

const REFUND_ERRORS: readonly ErrorCode[] = [
  "partner_not_active",
  "payment_not_found",
  "refund_in_progress",
  "payment_not_refundable",
  "refund_amount_exceeds_remaining",
  "direct_refund_not_allowed",
  "refund_not_yet_available",
  "refund_method_not_available",
];

const int = (min: number, max?: number) => ({ type: "integer", minimum: min, ...(max === undefined ? {} : { maximum: max }) });

export const OPERATIONS: Record<string, OperationDoc> = {
  "GET /v1/payment-acceptance": {
    operationId: "getPaymentAcceptance",
    summary: "Is the account accepting payments",
    responses: { 200: r.acceptance },
    errors: [],
  },
  "POST /v1/payment-links": {
    operationId: "createPaymentLink",
    summary: "Create a payment link",
    responses: { 201: r.paymentLink },
    errors: [
      "sensitive_data_not_allowed",
      "terminal_not_allowed",
      "partner_not_active",
      "installment_not_allowed",
      "payment_link_items_amount_mismatch",
    ],
  },
  "GET /v1/payment-links": {
    operationId: "listPaymentLinks",
    summary: "List payment links, newest first",
    responses: { 200: r.paymentLinkPage },
    errors: ["validation_error"],
    query: {
      page: { schema: int(0), description: "page index, from 0" },
      size: { schema: int(1), description: "page size (clamped to the maximum)" },
      status: { schema: { type: "string" }, description: "link status; may repeat" },
      minAmount: { schema: int(1), description: "smallest amount, inclusive" },
      maxAmount: { schema: int(1), description: "largest amount, inclusive" },
      createdFrom: { schema: { type: "string", format: "date-time" }, description: "created at or after" },
      createdTo: { schema: { type: "string", format: "date-time" }, description: "created before" },
    },
  },
  "GET /v1/payment-links/:id": {
    operationId: "getPaymentLink",
    summary: "Read a payment link",
    responses: { 200: r.paymentLink },
    errors: ["payment_link_not_found"],
  },
  "DELETE /v1/payment-links/:id": {
    operationId: "cancelPaymentLink",
    summary: "Cancel a payment link",
    responses: { 200: r.paymentLink },
    errors: ["payment_link_not_found", "payment_link_already_paid", "payment_link_expired", "payment_link_cancelled"],
  },
  "POST /v1/installment-options": {
    operationId: "getInstallmentOptions",
    summary: "Installment options for a card BIN",
    responses: { 200: r.installmentOptions },
    errors: ["terminal_not_allowed"],
  },
  "POST /v1/installment-options/overview": {
    operationId: "getInstallmentOverview",
    summary: "Installment overview without a BIN",
    responses: { 200: r.installmentOverview },
    errors: ["terminal_not_allowed"],
  },
  "POST /v1/payments": {
    operationId: "createPayment",
    summary: "Create a cardless payment",
    responses: { 201: r.paymentCreated, 200: r.paymentCreated },
    errors: [
      "terminal_not_allowed",
      "partner_not_active",
      "duplicate_partner_tx_code",
      "amount_limit_exceeded",
      "installment_not_allowed",
      "pos_per_tx_limit_exceeded",
      "pos_daily_limit_exceeded",
      "pos_weekly_limit_exceeded",
      "pos_monthly_limit_exceeded",
      "pos_time_window_limit_exceeded",
    ],
  },
  "GET /v1/payments": {
    operationId: "getPaymentByTxCode",
    summary: "Read the active payment of a partnerTxCode",
    responses: { 200: r.payment },
    errors: ["validation_error", "payment_not_found"],
    query: { partnerTxCode: { schema: { type: "string", minLength: 1 }, description: "the partner's transaction code" } },
  },
  "GET /v1/payments/:paymentCode": {
    operationId: "getPayment",
    summary: "Read a payment",
    responses: { 200: r.payment },
    errors: ["payment_not_found"],
  },
  "POST /v1/payments/:paymentCode/refunds": {
    operationId: "refundPayment",
    summary: "Refund, method chosen by kasa",
    responses: { 201: r.refundCreated },
    errors: REFUND_ERRORS,
  },
  "POST /v1/payments/:paymentCode/refunds/credit": {
    operationId: "creditPayment",
    summary: "Refund as a credit",
    responses: { 201: r.refundCreated },
    errors: REFUND_ERRORS,
  },
  "POST /v1/payments/:paymentCode/refunds/void": {
    operationId: "voidPayment",
    summary: "Refund as a same-day void",
    responses: { 201: r.refundCreated },
    errors: REFUND_ERRORS,
  },
  "GET /v1/payments/:paymentCode/refunds/:refundId": {
    operationId: "getRefund",
    summary: "Read a refund",
    responses: { 200: r.refund },
    errors: ["refund_not_found"],
  },
  "GET /sandbox/clock": {
    operationId: "getSandboxClock",
    summary: "The sandbox clock (sandbox only)",
    responses: { 200: r.clock },
    errors: ["not_found"],
  },
  "POST /sandbox/clock": {
    operationId: "moveSandboxClock",
    summary: "Move the sandbox clock forward (sandbox only)",
    responses: { 200: r.clock },
    errors: ["not_found"],
  },
  "POST /sandbox/payments/:paymentCode/simulate": {
    operationId: "simulatePayment",
    summary: "Pay a payment as a buyer would, without a browser (sandbox only)",
    responses: { 200: r.simulated },
    errors: ["not_found", "payment_not_found"],
  },
  "POST /sandbox/payment-links/:id/simulate": {
    operationId: "simulatePaymentLink",
    summary: "Pay a payment link as a buyer would (sandbox only)",
    responses: { 200: r.simulated },
    errors: ["not_found", "payment_link_not_found", "payment_link_already_paid", "payment_link_expired", "payment_link_cancelled"],
  },
  "POST /sandbox/connections/:id/outage": {
    operationId: "setSandboxOutage",
    summary: "Simulate an outage of a bank connection for some seconds of real time (sandbox only)",
    responses: { 200: r.outage },
    errors: ["not_found"],
  },
};
