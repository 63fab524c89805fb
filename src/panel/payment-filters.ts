import type { Deps } from "../deps";
import { addDays, istanbulDateStartMs } from "../domain/checks/istanbul-time";
import { fail } from "../errors";
import { html, type SafeHtml } from "../html";
import { PANEL_REASONS, type PanelPaymentFilter, type PanelReason } from "../store/panel-dashboard-ops";
import type { PaymentStatus, PaymentSummaryRow } from "../store/rows-money";
import { OUTCOMES, PAYMENT_STATES, plain } from "./words";

// docs/panel.md, Payments: the list's filters, read from the query string the same way for the
// page and for its CSV export: state, dates, a code, the bank of a card attempt and the reason one
// failed.

const STATUSES: readonly PaymentStatus[] = ["initiated", "captured", "failed", "expired", "voided", "refunded"];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export type Filters = { status: string; from: string; to: string; q: string; bank: string; reason: string };

export function readFilters(query: URLSearchParams): Filters {
  const pick = (name: string) => (query.get(name) ?? "").trim().slice(0, 100);
  const f = { status: pick("status"), from: pick("from"), to: pick("to"), q: pick("q"), bank: pick("bank"), reason: pick("reason") };
  if (f.status !== "" && !(STATUSES as readonly string[]).includes(f.status)) fail("validation_error", "status: not a payment status");
  if (f.reason !== "" && !(PANEL_REASONS as readonly string[]).includes(f.reason))
    fail("validation_error", `reason: one of ${PANEL_REASONS.join(", ")}`);
  for (const name of ["from", "to"] as const)
    if (f[name] !== "" && !DATE.test(f[name])) fail("validation_error", `${name}: a date as YYYY-MM-DD`);
  return f;
}

/** The filters as the store reads them; `before` is the keyset cursor "createdAtMs~code". */
export function toStoreFilter(partnerId: string, f: Filters, cursor: string | null, limit: number): PanelPaymentFilter {
  const [atText, code] = (cursor ?? "").split("~");
  const before = cursor !== null && /^\d{1,15}$/.test(atText ?? "") && code ? { atMs: Number(atText), code } : null;
  return {
    partnerId,
    status: f.status || null,
    fromMs: f.from ? istanbulDateStartMs(f.from) : null,
    toMs: f.to ? istanbulDateStartMs(addDays(f.to, 1)) : null,
    search: f.q || null,
    bank: f.bank || null,
    reason: (f.reason || null) as PanelReason | null,
    before,
    limit,
  };
}

export const cursorOf = (p: PaymentSummaryRow): string => `${p.createdAtMs}~${p.code}`;

/** The banks a partner's attempts can go to: each terminal's `bank`, else its connection. */
export async function banksOf(deps: Deps, partnerId: string): Promise<string[]> {
  const terminals = await deps.store.q.catalog.terminals(partnerId);
  const banks = terminals.filter((t) => t.routing === null).map((t) => t.bank ?? t.connectionId);
  return [...new Set(banks)].sort((a, b) => a.localeCompare(b, "tr"));
}

function select(id: string, label: string, current: string, options: readonly [string, string][]): SafeHtml {
  const items = [["", "Tümü"] as const, ...options].map(
    ([value, text]) => html`<option value="${value}"${value === current ? html` selected` : ""}>${text}</option>`,
  );
  return html`<div><label for="${id}">${label}</label><select id="${id}" name="${id}">${items}</select></div>`;
}

export function filterForm(f: Filters, banks: readonly string[]): SafeHtml {
  const banksShown = f.bank !== "" && !banks.includes(f.bank) ? [...banks, f.bank] : banks;
  return html`<form class="filters" method="get" action="/panel/payments">
${select(
  "status",
  "Durum",
  f.status,
  STATUSES.map((s) => [s, plain(PAYMENT_STATES, s)]),
)}
${select(
  "bank",
  "Banka",
  f.bank,
  banksShown.map((b) => [b, b]),
)}
${select(
  "reason",
  "Başarısızlık nedeni",
  f.reason,
  PANEL_REASONS.map((r) => [r, plain(OUTCOMES, r)]),
)}
<div><label for="from">Başlangıç tarihi (YYYY-AA-GG)</label><input id="from" name="from" value="${f.from}" inputmode="numeric"></div>
<div><label for="to">Bitiş tarihi (YYYY-AA-GG)</label><input id="to" name="to" value="${f.to}" inputmode="numeric"></div>
<div><label for="q">Ödeme kodu ya da sipariş kodu</label><input id="q" name="q" value="${f.q}"></div>
<div><button type="submit">Filtrele</button></div>
</form>`;
}

/** The filters as a query string (empty ones left out), for the next page and the export link. */
export function filterQuery(f: Filters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...f, ...extra })) if (v !== "") q.set(k, v);
  return q.toString();
}
