// Posnet's formats (docs/banks-posnet.md, "Order ids and formats"). kasa's attempt id is `att-`
// and 20 letters and digits; those 20 characters are the XID, which Posnet takes as they are
// (exactly 20, letters and digits). The transform is reversible: `att-` + XID is the attempt.
// Status, void and refund name a 3D order `TDSC` + XID.

export const XID_LENGTH = 20;

/** Left-padded with `0` to `length`; longer is refused, as the bank refuses it (E189). */
export function formatOrderId(id: string, length = XID_LENGTH): string {
  if (id.length > length) throw new Error(`order id ${id} is longer than ${length}`);
  return id.padStart(length, "0");
}

/** The attempt's XID: its id without the `att-` (or older `att_`) prefix. */
export const xidOf = (attemptId: string): string => formatOrderId(attemptId.replace(/^att[-_]/, ""));

export const TDSC = "TDSC";

/** The order id of status, reverse and return for a 3D order. */
export const orderIdOf = (xid: string): string => `${TDSC}${formatOrderId(xid)}`;

/** `00` for a single charge (count 0 or 1), else the count in two digits (`02`-`12`). */
export const installmentOf = (count: number): string => (count <= 1 ? "00" : String(count).padStart(2, "0"));

/** Integer kuruş as the bank's minor-unit digits. */
export const minorAmount = (kurus: number): string => {
  if (!Number.isSafeInteger(kurus) || kurus < 0) throw new Error(`not an amount in kuruş: ${kurus}`);
  return String(kurus);
};

/** `YYMM` from the card form's two-digit year and month. */
export const expDateOf = (yy: string, mm: string): string => `${yy.padStart(2, "0").slice(-2)}${mm.padStart(2, "0").slice(-2)}`;

export const CURRENCY_TL = "TL";
