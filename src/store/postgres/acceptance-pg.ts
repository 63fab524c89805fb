import type { AgreementRow, HoldRow } from "../rows";
import type { AcceptanceOps } from "../store";
import type { Pg } from "./pg";

// Holds and agreements (who may take payments) on PostgreSQL. Aliases are quoted because
// PostgreSQL folds unquoted names to lower case; text sort keys compare by bytes, as in SQLite.

const AGREEMENT_COLUMNS = `partner_id AS "partnerId", agreement_code AS "agreementCode", version,
  agreement_name AS "agreementName", requirement, kind, deadline_at_ms AS "deadlineAtMs",
  accepted_at_ms AS "acceptedAtMs", created_at_ms AS "createdAtMs"`;

export function acceptancePg(sql: Pg): AcceptanceOps {
  const cols = () => sql.unsafe(AGREEMENT_COLUMNS);
  return {
    blocksPayments: async (partnerId, nowMs) =>
      (
        await sql<{ blocked: boolean }[]>`
          SELECT EXISTS (SELECT 1 FROM holds WHERE partner_id = ${partnerId})
              OR EXISTS (SELECT 1 FROM agreements WHERE partner_id = ${partnerId} AND accepted_at_ms IS NULL
                           AND deadline_at_ms <= ${nowMs}) AS blocked`
      )[0]?.blocked === true,
    holds: async (partnerId) => [
      ...(await sql<HoldRow[]>`
        SELECT partner_id AS "partnerId", reason, since_ms AS "sinceMs" FROM holds WHERE partner_id = ${partnerId}
        ORDER BY reason COLLATE "C"`),
    ],
    setHold: async (h) =>
      (
        await sql`INSERT INTO holds (partner_id, reason, since_ms) VALUES (${h.partnerId}, ${h.reason}, ${h.sinceMs}) ON CONFLICT DO NOTHING`
      ).count === 1,
    clearHold: async (partnerId, reason) =>
      (await sql`DELETE FROM holds WHERE partner_id = ${partnerId} AND reason = ${reason}`).count === 1,
    agreements: async (partnerId) => [
      ...(await sql<AgreementRow[]>`
        SELECT ${cols()} FROM agreements WHERE partner_id = ${partnerId}
        ORDER BY created_at_ms, agreement_code COLLATE "C", version COLLATE "C"`),
    ],
    agreement: async (partnerId, code, version) =>
      (
        await sql<AgreementRow[]>`
          SELECT ${cols()} FROM agreements WHERE partner_id = ${partnerId} AND agreement_code = ${code} AND version = ${version}`
      )[0],
    async upsertAgreement(a) {
      await sql`
        INSERT INTO agreements (partner_id, agreement_code, version, agreement_name, requirement, kind, deadline_at_ms,
          accepted_at_ms, created_at_ms)
        VALUES (${a.partnerId}, ${a.agreementCode}, ${a.version}, ${a.agreementName}, ${a.requirement}, ${a.kind},
          ${a.deadlineAtMs}, ${a.acceptedAtMs}, ${a.createdAtMs})
        ON CONFLICT (partner_id, agreement_code, version) DO UPDATE SET agreement_name = excluded.agreement_name,
          requirement = excluded.requirement, kind = excluded.kind, deadline_at_ms = excluded.deadline_at_ms,
          accepted_at_ms = excluded.accepted_at_ms`;
    },
    accept: async (partnerId, code, atMs) =>
      (
        await sql`UPDATE agreements SET accepted_at_ms = ${atMs}
          WHERE partner_id = ${partnerId} AND agreement_code = ${code} AND accepted_at_ms IS NULL`
      ).count,
  };
}
