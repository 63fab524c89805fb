import type { Deps } from "../deps";
import { istanbulDate } from "../domain/checks/istanbul-time";
import type { PaymentSummaryRow } from "../store/rows-money";
import { dateTr, when } from "./format";
import { cursorOf, readFilters, toStoreFilter } from "./payment-filters";
import type { PanelRoute } from "./route";
import { CHANNELS, PAYMENT_STATES, plain } from "./words";

// docs/panel.md, CSV export: the filtered payments list as a file Excel in Turkey opens as it is:
// UTF-8 with a byte order mark (else Excel reads it as Windows-1254), `;` between cells (Turkish
// Excel's list separator), amounts with a decimal comma and no thousands mark, dates as
// DD.MM.YYYY. The rows are read a page at a time, each page one query.

/** More than this is a narrower date range's job; the page says so. */
export const CSV_MAX_ROWS = 10_000;
const PAGE = 1_000;

/** Kuruş as Excel in Turkey reads a number: "1234,56". */
const amount = (kurus: number | null): string => {
  if (kurus === null) return "";
  const sign = kurus < 0 ? "-" : "";
  const digits = String(Math.abs(kurus)).padStart(3, "0");
  return `${sign}${digits.slice(0, -2)},${digits.slice(-2)}`;
};

/**
 * A text cell: quoted when it holds the separator, a quote or a line break; a leading = + - @ (a
 * formula to a spreadsheet) is neutralised with an apostrophe, since partnerTxCode is the
 * merchant's own text.
 */
const text = (value: string | null): string => {
  const v = value ?? "";
  const safe = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[;"\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The columns, in order: heading and cell. docs/panel.md lists them with their API names. */
const COLUMNS: readonly [string, (p: PaymentSummaryRow) => string][] = [
  ["Ödeme kodu", (p) => text(p.code)],
  ["Sipariş kodu", (p) => text(p.partnerTxCode)],
  ["Durum", (p) => text(plain(PAYMENT_STATES, p.status))],
  ["Durum kodu", (p) => text(p.status)],
  ["Tutar (TL)", (p) => amount(p.amount)],
  ["Taksit", (p) => String(p.installment)],
  ["Kanal", (p) => text(plain(CHANNELS, p.channel))],
  ["Terminal", (p) => text(p.terminalId)],
  ["Kart", (p) => text(p.maskedPan)],
  ["Komisyon (TL)", (p) => amount(p.commissionAmount)],
  ["Size geçecek (TL)", (p) => amount(p.netToPartner)],
  ["İade edilen (TL)", (p) => amount(p.refundedAmount)],
  ["Valör günü", (p) => dateTr(p.expectedValueDate).replace("—", "")],
  ["Oluşturma", (p) => when(p.createdAtMs)],
  ["Tahsilat", (p) => (p.capturedAtMs === null ? "" : when(p.capturedAtMs))],
];

export const CSV_HEADINGS = COLUMNS.map(([heading]) => heading);

export function paymentsCsvPage(deps: Deps): PanelRoute {
  return {
    method: "GET",
    path: "/panel/payments.csv",
    auth: "panel:viewer",
    async handle(event, ctx) {
      const f = readFilters(event.url.searchParams);
      const lines = [COLUMNS.map(([heading]) => heading).join(";")];
      let cursor: string | null = null;
      while (lines.length - 1 < CSV_MAX_ROWS) {
        const limit = Math.min(PAGE, CSV_MAX_ROWS - (lines.length - 1));
        const rows = await deps.store.q.panel.payments(toStoreFilter(ctx.session.user.partnerId, f, cursor, limit));
        for (const p of rows) lines.push(COLUMNS.map(([, cell]) => cell(p)).join(";"));
        const last = rows.at(-1);
        if (rows.length < limit || !last) break;
        cursor = cursorOf(last);
      }
      const name = `odemeler-${istanbulDate(deps.clock.nowMs())}.csv`;
      return new Response(`\uFEFF${lines.join("\r\n")}\r\n`, {
        status: 200,
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${name}"`,
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  };
}
