import { sensitive } from "../../sensitive";
import type { BankFormFields, Start3dInput } from "../gateway";
import type { GarantiConfig } from "./config";
import { secure3dHash } from "./crypt";
import { orderIdOf, toInstallment, toMinor } from "./order-id";
import { CURRENCY } from "./requests";

// The auto-submitting form to the 3D gate (docs/banks-garanti.md, "3D start"): the twenty fields
// of the bank's list in its order, `successurl` = `errorurl` = the attempt's callback URL, signed
// with `secure3dhash` (the card fields are not hashed; they stay Sensitive until rendered).

export const securityLevelOf = (model: GarantiConfig["model"]): string => (model === "3d" ? "3D" : "3D_PAY");

/**
 * The buyer's address the gate and the provision want. The gateway does not hand the adapter the
 * buyer's address, so kasa sends the loopback address (docs/banks-garanti.md, "What kasa assumed").
 */
export const CUSTOMER_IP = "127.0.0.1";

export function formOf(config: GarantiConfig, input: Start3dInput): BankFormFields {
  const signed = {
    terminalid: config.terminalId,
    orderid: orderIdOf(input.attemptId),
    txnamount: toMinor(input.amount),
    txncurrencycode: CURRENCY,
    successurl: input.callbackUrl,
    errorurl: input.callbackUrl,
    txntype: "sales",
    txninstallmentcount: toInstallment(input.installment),
  };
  return {
    secure3dsecuritylevel: securityLevelOf(config.model),
    mode: config.mode,
    apiversion: "512",
    terminalprovuserid: config.provUserId,
    terminaluserid: config.provUserId,
    terminalmerchantid: config.merchantId,
    terminalid: signed.terminalid,
    txntype: signed.txntype,
    txnamount: signed.txnamount,
    txncurrencycode: signed.txncurrencycode,
    txninstallmentcount: signed.txninstallmentcount,
    orderid: signed.orderid,
    successurl: signed.successurl,
    errorurl: signed.errorurl,
    customeripaddress: input.buyerIp || CUSTOMER_IP,
    cardnumber: input.card.pan,
    cardexpiredatemonth: input.card.expireMonth,
    cardexpiredateyear: input.card.expireYear,
    cardcvv2: input.card.cv2,
    secure3dhash: sensitive(secure3dHash(signed, config.storeKey, config.provPassword)),
  };
}
