import type { LinkCheckoutOps } from "../links-ops";
import type { Pg } from "./pg";

// What the hosted link pages ask about a link's own payments, on PostgreSQL (issue 23): the
// translation of sqlite/link-checkout-sql.ts. Reads only.

export function linkCheckoutPg(sql: Pg): LinkCheckoutOps {
  const codes = async (rows: Promise<{ code: string }[]>) => Array.from(await rows, (r) => r.code);
  return {
    initiatedCodes: (linkId) =>
      codes(sql`SELECT code FROM payments WHERE link_id = ${linkId} AND status = 'initiated' ORDER BY created_at_ms, code COLLATE "C"`),
    paymentCodes: (linkId) =>
      codes(sql`SELECT code FROM payments WHERE link_id = ${linkId} ORDER BY created_at_ms, partner_tx_code COLLATE "C"`),
    latestCode: async (linkId) =>
      (
        await sql<
          { code: string }[]
        >`SELECT code FROM payments WHERE link_id = ${linkId} ORDER BY created_at_ms DESC, code COLLATE "C" DESC LIMIT 1`
      )[0]?.code ?? null,
    cardAttempts: async (linkId) =>
      (
        await sql<{ n: number }[]>`SELECT count(*) AS n FROM payment_attempts a JOIN payments p ON p.code = a.payment_code
          WHERE p.link_id = ${linkId}`
      )[0]?.n ?? 0,
  };
}
