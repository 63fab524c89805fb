import * as v from "valibot";

// Issue 21, docs/api.md: the response bodies of the API as valibot schemas, field for field the
// views' output (domain/*/view.ts). The OpenAPI document is generated from them, and the API test
// suite checks every response it receives against them, so a view and its description cannot drift.

const iso = v.pipe(v.string(), v.isoTimestamp());
const isoOrNull = v.nullable(iso);
const int = v.pipe(v.number(), v.integer());
const intOrNull = v.nullable(int);
const strOrNull = v.nullable(v.string());

export const paymentStatus = v.picklist(["initiated", "captured", "failed", "expired", "voided", "refunded"]);
export const linkStatus = v.picklist(["pending", "launched", "initiated", "completed", "expired", "failed", "cancelled"]);
const cardFamily = v.nullable(v.picklist(["credit", "debit", "prepaid", "foreign"]));
const refundStatus = v.picklist(["pending", "approved", "declined"]);
const refundMethod = v.picklist(["void", "credit"]);

/** docs/contract.md, Create a payment. */
export const paymentCreated = v.strictObject({
  paymentCode: v.string(),
  status: paymentStatus,
  paymentRef: v.string(),
  handoffUrl: v.pipe(v.string(), v.url()),
  idempotentReplay: v.boolean(),
});

/** docs/contract.md, The payment record. */
export const payment = v.strictObject({
  paymentCode: v.string(),
  partnerTxCode: v.string(),
  status: paymentStatus,
  amount: int,
  currency: v.literal("TRY"),
  installmentCount: int,
  maskedPan: strOrNull,
  cardFamily,
  cardBank: strOrNull,
  appliedRateBps: intOrNull,
  appliedFixedFee: intOrNull,
  commissionAmount: intOrNull,
  netToPartner: intOrNull,
  expectedValueDate: strOrNull,
  refunds: v.array(v.strictObject({ refundId: v.string(), amount: int, status: refundStatus, createdAt: iso, updatedAt: iso })),
});

/** docs/contract.md, The sandbox: the payment record with the simulated buyer's outcome. */
export const simulated = v.strictObject({ ...payment.entries, outcome: v.string() });

/** docs/contract.md, The link record. */
export const paymentLink = v.strictObject({
  id: v.string(),
  token: v.string(),
  url: v.pipe(v.string(), v.url()),
  partnerReference: int,
  status: linkStatus,
  amount: int,
  customerCommissionShareBps: int,
  description: strOrNull,
  redirectUrl: strOrNull,
  firstOpenedAt: isoOrNull,
  lastOpenedAt: isoOrNull,
  expiresAt: iso,
  createdAt: iso,
  updatedAt: iso,
  allowedInstallmentCounts: v.nullable(v.array(int)),
  items: v.nullable(v.array(v.strictObject({ name: v.string(), note: strOrNull, amount: int }))),
  payerName: strOrNull,
});

/** docs/contract.md, List links. */
export const paymentLinkPage = v.strictObject({ items: v.array(paymentLink), page: int, size: int, hasMore: v.boolean() });

const option = v.strictObject({
  installmentCount: int,
  rateBps: int,
  fixedFee: intOrNull,
  baseAmount: intOrNull,
  commissionAmount: intOrNull,
  customerShareAmount: intOrNull,
  totalAmount: intOrNull,
});
const basis = v.picklist(["gross", "net"]);

/** docs/contract.md, Options for a card. */
export const installmentOptions = v.strictObject({
  cardBrand: strOrNull,
  cardFamily,
  cardBank: strOrNull,
  options: v.array(option),
  commissionBasis: basis,
});

const groupSource = { cardType: cardFamily, onUs: v.nullable(v.boolean()), cardBrand: strOrNull };

/** docs/contract.md, The overview. */
export const installmentOverview = v.strictObject({
  commissionBasis: basis,
  maximums: v.array(v.strictObject({ option, source: v.strictObject(groupSource) })),
  optionGroups: v.array(v.strictObject({ ...groupSource, onUsRequired: v.nullable(v.boolean()), options: v.array(option) })),
});

/** docs/contract.md#the-refund-record creation answer (4.10, 4.11, docs/decisions.md, Readings of the contract). */
export const refundCreated = v.strictObject({ refundId: v.string(), method: refundMethod, status: refundStatus });

/** docs/contract.md, The refund record. */
export const refund = v.strictObject({
  refundId: v.string(),
  method: refundMethod,
  status: refundStatus,
  amount: int,
  procReturnCode: strOrNull,
  authCode: strOrNull,
  errMsg: strOrNull,
  bankReference: strOrNull,
  createdAt: iso,
  updatedAt: iso,
});

/** docs/contract.md, Payment acceptance. */
export const acceptance = v.strictObject({
  acceptingPayments: v.boolean(),
  partnerStatus: v.picklist(["active", "suspended", "closed"]),
  holds: v.array(v.strictObject({ reason: v.string(), effective: v.boolean(), effectiveAt: iso, since: iso })),
  agreements: v.nullable(
    v.array(
      v.strictObject({
        agreementCode: v.string(),
        agreementName: v.string(),
        version: v.string(),
        requirement: v.string(),
        kind: v.string(),
        deadlineAt: isoOrNull,
        lastDay: strOrNull,
        expired: v.boolean(),
        effectiveAt: iso,
      }),
    ),
  ),
});

/** docs/contract.md, The sandbox. */
export const clock = v.strictObject({ now: iso });

/** docs/operating.md, Health: a connection's simulated outage (real time) and its breaker now. */
export const outage = v.strictObject({
  connectionId: v.string(),
  outageUntil: isoOrNull,
  health: v.picklist(["closed", "open", "half-open"]),
});

/** docs/contract.md, Errors: every error. */
export const errorEnvelope = v.strictObject({ error: v.strictObject({ code: v.string(), message: v.string(), traceId: v.string() }) });

/** docs/contract.md, Webhooks: the thin webhook event body (`data` fields depend on the type). */
export const webhookEvent = v.object({
  id: v.string(),
  type: v.string(),
  occurredAt: iso,
});
