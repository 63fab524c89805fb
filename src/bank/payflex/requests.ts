import { toLira } from "../../lira";
import type { PayflexConfig } from "./config";
import { writeDocument, writeVposRequest, type XmlFields } from "./xml";

// The requests kasa sends (docs/banks-payflex.md, "The protocol as kasa speaks it"), field by field
// in the order of the library whose tests are the vectors. kasa's attempt id is every bank-side id:
// VerifyEnrollmentRequestId, TransactionId, OrderId and MpiTransactionId.

export const CURRENCY_TRY = "949";

/** The MPI's `BrandName` from the card number: Visa 100, Mastercard 200, Troy 300, Amex 400; null: none of them. */
export function brandOf(pan: string): string | null {
  if (pan.startsWith("4")) return "100";
  const two = Number(pan.slice(0, 2));
  const four = Number(pan.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return "200";
  if (pan.startsWith("9792") || pan.startsWith("65")) return "300";
  if (two === 34 || two === 37) return "400";
  return null;
}

export interface EnrollmentInput {
  id: string;
  amount: number;
  installment: number;
  /** kasa's callback URL of the attempt: both SuccessUrl and FailureUrl. */
  callbackUrl: string;
  pan: string;
  /** YYMM */
  expiry: string;
  brand: string;
}

/** The enrollment's urlencoded fields; `InstallmentCount` only for an installment charge. */
export function enrollmentFields(config: PayflexConfig, input: EnrollmentInput): Array<[string, string]> {
  const fields: Array<[string, string]> = [
    ["MerchantId", config.merchantId],
    ["MerchantPassword", config.password],
    ["MerchantType", String(config.merchantType)],
    ["PurchaseAmount", toLira(input.amount)],
    ["VerifyEnrollmentRequestId", input.id],
    ["Currency", CURRENCY_TRY],
    ["SuccessUrl", input.callbackUrl],
    ["FailureUrl", input.callbackUrl],
    ["Pan", input.pan],
    ["ExpiryDate", input.expiry],
    ["BrandName", input.brand],
    ["IsRecurring", "false"],
  ];
  if (input.installment > 1) fields.push(["InstallmentCount", String(input.installment)]);
  if (config.subMerchantId !== null) fields.push(["SubMerchantId", config.subMerchantId]);
  return fields;
}

export interface SaleInput {
  attemptId: string;
  amount: number;
  installment: number;
  eci: string;
  cavv: string;
  clientIp: string;
  pan: string;
  /** YYYYMM */
  expiry: string;
}

/** The 3D provision: kasa's own amount, count and ids; only ECI, CAVV, Pan and Expiry from the callback. */
export function saleXml(config: PayflexConfig, input: SaleInput): string {
  const fields: Array<[string, string]> = [
    ["MerchantId", config.merchantId],
    ["Password", config.password],
    ["TerminalNo", config.terminalNo],
    ["TransactionType", "Sale"],
    ["TransactionId", input.attemptId],
    ["CurrencyAmount", toLira(input.amount)],
    ["CurrencyCode", CURRENCY_TRY],
    ["ECI", input.eci],
    ["CAVV", input.cavv],
    ["MpiTransactionId", input.attemptId],
    ["OrderId", input.attemptId],
    ["ClientIp", input.clientIp],
    ["TransactionDeviceSource", "0"],
    ["Pan", input.pan],
    ["Expiry", input.expiry],
  ];
  if (input.installment > 1) fields.push(["NumberOfInstallments", String(input.installment)]);
  return writeVposRequest(fields);
}

/** Cancel (void) of the sale named by its TransactionId. */
export const cancelXml = (config: PayflexConfig, reference: string, clientIp: string): string =>
  writeVposRequest([
    ["MerchantId", config.merchantId],
    ["Password", config.password],
    ["TransactionType", "Cancel"],
    ["ReferenceTransactionId", reference],
    ["ClientIp", clientIp],
  ]);

/** Refund (credit), full or partial: the same message with the amount to give back. */
export const refundXml = (config: PayflexConfig, reference: string, amount: number, clientIp: string): string =>
  writeVposRequest([
    ["MerchantId", config.merchantId],
    ["Password", config.password],
    ["TransactionType", "Refund"],
    ["ReferenceTransactionId", reference],
    ["ClientIp", clientIp],
    ["CurrencyAmount", toLira(amount)],
  ]);

/** The status query by TransactionId (which wins) and OrderId. */
export function searchXml(config: PayflexConfig, transactionId: string, orderId: string): string {
  const criteria: XmlFields = [
    ["TransactionId", transactionId],
    ["OrderId", orderId],
    ["AuthCode", ""],
  ];
  return writeDocument("SearchRequest", [
    [
      "MerchantCriteria",
      [
        ["HostMerchantId", config.merchantId],
        ["MerchantPassword", config.password],
      ],
    ],
    ["TransactionCriteria", criteria],
  ]);
}
