import * as v from "valibot";

// Issue 21, product 20: the response bodies of the API as valibot schemas, field for field the
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

/** Interface 2.2 / 4.5. */
export const paymentCreated = v.strictObject({
  paymentCode: v.string(),
  status: paymentStatus,
  paymentRef: v.string(),
  handoffUrl: v.pipe(v.string(), v.url()),
  idempotentReplay: v.boolean(),
});

/** Interface 2.3. */
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

/** Product 21: the payment record with the simulated buyer's outcome. */
export const simulated = v.strictObject({ ...payment.entries, outcome: v.string() });

/** Interface 2.1. */
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

/** Interface 4.2. */
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

/** Interface 4.8. */
export const installmentOptions = v.strictObject({
  cardBrand: strOrNull,
  cardFamily,
  cardBank: strOrNull,
  options: v.array(option),
  commissionBasis: basis,
});

const groupSource = { cardType: cardFamily, onUs: v.nullable(v.boolean()), cardBrand: strOrNull };

/** Interface 4.9. */
export const installmentOverview = v.strictObject({
  commissionBasis: basis,
  maximums: v.array(v.strictObject({ option, source: v.strictObject(groupSource) })),
  optionGroups: v.array(v.strictObject({ ...groupSource, onUsRequired: v.nullable(v.boolean()), options: v.array(option) })),
});

/** Interface 2.4 creation answer (4.10, 4.11, product 16). */
export const refundCreated = v.strictObject({ refundId: v.string(), method: refundMethod, status: refundStatus });

/** Interface 2.4. */
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

/** Interface 2.6 / 4.12. */
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

/** Product 13. */
export const clock = v.strictObject({ now: iso });

/** Interface 7.1: every error. */
export const errorEnvelope = v.strictObject({ error: v.strictObject({ code: v.string(), message: v.string(), traceId: v.string() }) });

/** Interface 6: the thin webhook event body (`data` fields depend on the type). */
export const webhookEvent = v.object({
  id: v.string(),
  type: v.string(),
  occurredAt: iso,
});
