import type { Db } from "./db-types";

// What the hosted link pages ask about a link's own payments (docs/checkout.md, Payment link pages). Reads only: every
// payment change goes through payments-sql's conditional updates. Served by the partial index
// `payments_by_link`.

export function linkCheckoutSql(db: Db) {
  return {
    /** Codes of the link's payments still `initiated`, oldest first: attempts that may yet run or resolve. */
    initiatedCodes: (linkId: string): string[] =>
      db
        .prepare("SELECT code FROM payments WHERE link_id = ? AND status = 'initiated' ORDER BY created_at_ms, code")
        .all<{ code: string }>(linkId)
        .map((r) => r.code),
    /** Codes of all the link's payments in the order they were made (same instant: by their `PL-{id}-{n}` code). */
    paymentCodes: (linkId: string): string[] =>
      db
        .prepare("SELECT code FROM payments WHERE link_id = ? ORDER BY created_at_ms, partner_tx_code")
        .all<{ code: string }>(linkId)
        .map((r) => r.code),
    /** The code of the link's newest payment, or null (docs/contract.md, The sandbox: what a simulated buyer just paid). */
    latestCode: (linkId: string): string | null =>
      db.prepare("SELECT code FROM payments WHERE link_id = ? ORDER BY created_at_ms DESC, code DESC LIMIT 1").get<{ code: string }>(linkId)
        ?.code ?? null,
    /** Card attempts recorded on all the link's payments, whatever became of them (docs/decisions.md, Hardening). */
    cardAttempts: (linkId: string): number =>
      db
        .prepare("SELECT count(*) AS n FROM payment_attempts a JOIN payments p ON p.code = a.payment_code WHERE p.link_id = ?")
        .get<{ n: number }>(linkId)?.n ?? 0,
  };
}
