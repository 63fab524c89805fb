import type { Db } from "./db-types";
import type { AgreementRow, HoldRow } from "../rows";

const AGREEMENT_COLUMNS = `partner_id AS partnerId, agreement_code AS agreementCode, version,
  agreement_name AS agreementName, requirement, kind, deadline_at_ms AS deadlineAtMs,
  accepted_at_ms AS acceptedAtMs, created_at_ms AS createdAtMs`;

export function acceptanceSql(db: Db) {
  return {
    /**
     * The hot-path guard (every new payment and link): is any hold effective now? An admin hold
     * always is; agreements_pending is once an unaccepted agreement's deadline has come (the
     * earliest deadline <= now). One indexed EXISTS, about 20x cheaper than reading both lists.
     */
    blocksPayments: (partnerId: string, nowMs: number): boolean =>
      db
        .prepare(
          `SELECT EXISTS (SELECT 1 FROM holds WHERE partner_id = ?)
              OR EXISTS (SELECT 1 FROM agreements WHERE partner_id = ? AND accepted_at_ms IS NULL AND deadline_at_ms <= ?) AS blocked`,
        )
        .get<{ blocked: number }>(partnerId, partnerId, nowMs)?.blocked === 1,
    holds: (partnerId: string) =>
      db
        .prepare("SELECT partner_id AS partnerId, reason, since_ms AS sinceMs FROM holds WHERE partner_id = ? ORDER BY reason")
        .all<HoldRow>(partnerId),
    /** Setting a hold that is already set keeps its original `since`. */
    setHold: (h: HoldRow) =>
      db
        .prepare("INSERT INTO holds (partner_id, reason, since_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
        .run(h.partnerId, h.reason, h.sinceMs).changes === 1,
    clearHold: (partnerId: string, reason: string) =>
      db.prepare("DELETE FROM holds WHERE partner_id = ? AND reason = ?").run(partnerId, reason).changes === 1,
    agreements: (partnerId: string) =>
      db
        .prepare(`SELECT ${AGREEMENT_COLUMNS} FROM agreements WHERE partner_id = ? ORDER BY created_at_ms, agreement_code, version`)
        .all<AgreementRow>(partnerId),
    agreement: (partnerId: string, code: string, version: string) =>
      db
        .prepare(`SELECT ${AGREEMENT_COLUMNS} FROM agreements WHERE partner_id = ? AND agreement_code = ? AND version = ?`)
        .get<AgreementRow>(partnerId, code, version),
    upsertAgreement(a: AgreementRow): void {
      db.prepare(
        `INSERT INTO agreements (partner_id, agreement_code, version, agreement_name, requirement, kind, deadline_at_ms,
           accepted_at_ms, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (partner_id, agreement_code, version) DO UPDATE SET agreement_name = excluded.agreement_name,
           requirement = excluded.requirement, kind = excluded.kind, deadline_at_ms = excluded.deadline_at_ms,
           accepted_at_ms = excluded.accepted_at_ms`,
      ).run(a.partnerId, a.agreementCode, a.version, a.agreementName, a.requirement, a.kind, a.deadlineAtMs, a.acceptedAtMs, a.createdAtMs);
    },
    accept: (partnerId: string, code: string, atMs: number) =>
      db
        .prepare("UPDATE agreements SET accepted_at_ms = ? WHERE partner_id = ? AND agreement_code = ? AND accepted_at_ms IS NULL")
        .run(atMs, partnerId, code).changes,
  };
}
