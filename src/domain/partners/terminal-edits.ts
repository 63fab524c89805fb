import * as v from "valibot";
import { fail } from "../../errors";
import type { Store } from "../../store/store";
import { describeIssue } from "../checks/valibot-issue";
import { terminal as terminalSchema } from "./seed-schema";
import type { TerminalRow } from "../../store/rows";

// The switches an operator flips on a terminal in day-to-day work (`kasa terminals set`). Rates
// and per-count value days stay in the seed file, which is where a terminal's commercial terms
// are reviewed; the changed terminal is checked whole by the seed file's own schema, so an edit
// can never store what a seed file could not.

export type TerminalPatch = Partial<Omit<TerminalRow, "id" | "partnerId" | "connectionId" | "rates" | "valueDaysByCount">>;

/**
 * The changed terminal, or a `validation_error` whose message starts with the seed file's path of
 * the field (`installments[0]: …`), so a caller can name its own input for it.
 */
export function toEditedTerminal(row: TerminalRow, patch: TerminalPatch): TerminalRow {
  const next = { ...row, ...patch };
  if (row.routing !== null) return toEditedRouter(row, patch);
  const asSeed = {
    id: next.id,
    partner: next.partnerId,
    connection: next.connectionId,
    active: next.active,
    commissionBasis: next.commissionBasis,
    installments: next.installments,
    infrastructure: next.infrastructure,
    directCollection: next.directCollection,
    valueDays: next.valueDaysByCount === null ? next.valueDays : { ...next.valueDaysByCount, default: next.valueDays },
    bank: next.bank,
    allowedCardFamilies: next.allowedCardFamilies,
    rates: next.rates,
  };
  const result = v.safeParse(terminalSchema, asSeed, { abortPipeEarly: true });
  if (!result.success) fail("validation_error", describeIssue(result.issues[0]));
  return {
    ...next,
    installments: [...new Set(next.installments)].sort((a, b) => a - b),
    allowedCardFamilies: next.allowedCardFamilies === null ? null : [...new Set(next.allowedCardFamilies)],
  };
}

/** A router keeps only its switches (docs/routing.md): its members carry counts, rates and banks. */
const ROUTER_SWITCHES = new Set(["active", "infrastructure"]);

function toEditedRouter(row: TerminalRow, patch: TerminalPatch): TerminalRow {
  const refused = Object.keys(patch).find((key) => !ROUTER_SWITCHES.has(key));
  if (refused !== undefined) fail("validation_error", `${refused}: not allowed on a router; its members carry it (docs/routing.md)`);
  return { ...row, ...patch };
}

/** One unit: the terminal as it stands, the patch checked against it, the row written; answers the new row. */
export async function editTerminal(deps: { store: Store }, terminalId: string, patch: TerminalPatch): Promise<TerminalRow> {
  return await deps.store.write(async (tx) => {
    const row = await tx.catalog.terminal(terminalId);
    if (!row) fail("not_found", `unknown terminal ${terminalId}`);
    const next = toEditedTerminal(row, patch);
    await tx.catalog.upsertTerminal(next);
    return next;
  });
}
