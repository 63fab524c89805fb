import type { Repos } from "../../store/store";
import type { AuditRow, PanelUserRow } from "../../store/rows";

// docs/panel.md's audit log: who did what, when, from where, and how it ended ("ok" or the catalog
// code of the refusal). Written in the same unit as the change it records, or alone for a refusal.

export type AuditEntry = { action: string; target: string | null; outcome: string; ip: string };

export async function recordAudit(
  tx: Repos,
  user: Pick<PanelUserRow, "id" | "partnerId" | "email">,
  entry: AuditEntry,
  atMs: number,
): Promise<void> {
  const row: AuditRow = { partnerId: user.partnerId, atMs, userId: user.id, email: user.email, ...entry };
  await tx.panelAudit.insert(row);
}
