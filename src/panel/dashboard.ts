import type { Deps } from "../deps";
import { ISTANBUL_OFFSET_MS, istanbulDate, startOfIstanbulDayMs } from "../domain/checks/istanbul-time";
import { html, type SafeHtml } from "../html";
import { DAY_MS } from "../limits";
import type { CapturedDayRow, OutcomeRow, PayoutDueRow } from "../store/panel-dashboard-ops";
import { PANEL_REASONS } from "../store/panel-dashboard-ops";
import { count, dateTr, money, percent } from "./format";
import { scroll } from "./layout";
import { OUTCOMES, word } from "./words";

// docs/panel.md, Dashboard: what a merchant asks every morning. Captures per day for 30 days (an
// inline SVG chart and the same numbers as a table), today / 7 / 30 days, the success rate of card
// attempts with the failures by reason, the same per bank, refunds, open links and the payouts to
// come. Each figure is one store query; this module only adds up their few rows.

const DAYS = 30;

export type DashboardFacts = {
  todayStartMs: number;
  days: { date: string; count: number; sum: number }[];
  outcomes: OutcomeRow[];
  refunds: { count: number; sum: number };
  links: { count: number; sum: number };
  payouts: PayoutDueRow[];
};

/** The five reads of the dashboard, run at once (each is one statement on the store). */
export async function dashboardFacts(deps: Deps, partnerId: string): Promise<DashboardFacts> {
  const nowMs = deps.clock.nowMs();
  const todayStartMs = startOfIstanbulDayMs(nowMs);
  const fromMs = todayStartMs - (DAYS - 1) * DAY_MS;
  const panel = deps.store.q.panel;
  const [byDay, outcomes, refunds, links, payouts] = await Promise.all([
    panel.capturedByDay(partnerId, fromMs, todayStartMs + DAY_MS, ISTANBUL_OFFSET_MS),
    // An attempt is made within its payment's lifetime: payments from a day earlier are enough.
    panel.attemptOutcomes(partnerId, fromMs, fromMs - DAY_MS),
    panel.refundTotals(partnerId, fromMs),
    panel.openLinks(partnerId, nowMs),
    panel.payoutsDue(partnerId),
  ]);
  return { todayStartMs, days: fillDays(byDay, fromMs), outcomes, refunds, links, payouts };
}

/** Every one of the 30 days, oldest first, with zeros for a day without captures. */
function fillDays(rows: readonly CapturedDayRow[], fromMs: number): DashboardFacts["days"] {
  const byStart = new Map(rows.map((r) => [r.dayStartMs, r]));
  return Array.from({ length: DAYS }, (_, i) => {
    const startMs = fromMs + i * DAY_MS;
    const r = byStart.get(startMs);
    return { date: istanbulDate(startMs), count: r?.count ?? 0, sum: r?.sum ?? 0 };
  });
}

function totals(days: DashboardFacts["days"], last: number): { count: number; sum: number } {
  return days.slice(-last).reduce((t, d) => ({ count: t.count + d.count, sum: t.sum + d.sum }), { count: 0, sum: 0 });
}

function totalsBody(days: DashboardFacts["days"]): SafeHtml {
  const today = totals(days, 1);
  const card = (title: string, t: { count: number; sum: number }, id: string) =>
    html`<div class="stat"><h3>${title}</h3><dl><dt>Tahsil edilen ödeme</dt><dd id="${id}-count">${count(t.count)}</dd><dt>Toplam</dt><dd id="${id}-sum">${money(t.sum)}</dd></dl></div>`;
  return html`<div class="stats">${card("Bugün", today, "today")}${card("Son 7 gün", totals(days, 7), "week")}${card("Son 30 gün", totals(days, DAYS), "month")}</div>`;
}

const W = 600;
const H = 200;
const TOP = 30;
const BASE = 172;

/** Bars of each day's captured sum; the table after it carries the same numbers for every reader. */
function chart(days: DashboardFacts["days"]): SafeHtml {
  const max = Math.max(1, ...days.map((d) => d.sum));
  const slot = W / days.length;
  const bars = days.map((d, i) => {
    const h = d.sum === 0 ? 0 : Math.max(2, Math.round(((BASE - TOP) * d.sum) / max));
    const x = (i * slot + 2).toFixed(1);
    return html`<rect class="bar" x="${x}" y="${BASE - h}" width="${(slot - 4).toFixed(1)}" height="${h}"><title>${dateTr(d.date)}: ${money(d.sum)}, ${count(d.count)} ödeme</title></rect>`;
  });
  const label = (i: number, anchor: string) =>
    html`<text x="${(i * slot + slot / 2).toFixed(1)}" y="${H - 4}" text-anchor="${anchor}">${dateTr(days[i]?.date ?? "").slice(0, 5)}</text>`;
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title" focusable="false">
<title id="chart-title">Son 30 günün günlük tahsilatı; en yüksek gün ${money(max === 1 ? 0 : max)}. Aynı sayılar aşağıdaki tabloda.</title>
<line class="axis" x1="0" y1="${BASE}" x2="${W}" y2="${BASE}"></line><text x="2" y="${TOP - 8}">${money(max === 1 ? 0 : max)}</text>
${bars}${label(0, "start")}${label(Math.floor(days.length / 2), "middle")}${label(days.length - 1, "end")}</svg>`;
}

function daysTable(days: DashboardFacts["days"]): SafeHtml {
  const rows = [...days]
    .reverse()
    .map((d) => html`<tr><th scope="row">${dateTr(d.date)}</th><td>${count(d.count)}</td><td>${money(d.sum)}</td></tr>`);
  return html`<details class="days"><summary>Günlük tahsilat tablosu</summary>${scroll(
    "Günlük tahsilat tablosu",
    html`<table id="days"><caption>Son 30 gün, en yeni gün önce</caption><thead><tr><th scope="col">Gün</th><th scope="col">Ödeme sayısı</th><th scope="col">Tutar</th></tr></thead><tbody>${rows}</tbody></table>`,
  )}</details>`;
}

type Tally = { attempts: number; captured: number; byReason: Map<string, number> };

function tally(rows: readonly OutcomeRow[]): Tally {
  const t: Tally = { attempts: 0, captured: 0, byReason: new Map() };
  for (const r of rows) {
    if (r.outcome === "open") continue;
    t.attempts += r.count;
    if (r.outcome === "captured") t.captured += r.count;
    else t.byReason.set(r.outcome, (t.byReason.get(r.outcome) ?? 0) + r.count);
  }
  return t;
}

const reasonCells = (t: Tally) => PANEL_REASONS.map((r) => html`<td>${count(t.byReason.get(r) ?? 0)}</td>`);
const reasonHeads = PANEL_REASONS.map((r) => html`<th scope="col">${word(OUTCOMES, r)}</th>`);

function successBody(outcomes: readonly OutcomeRow[]): SafeHtml {
  const all = tally(outcomes);
  const failed = all.attempts - all.captured;
  const reasons = PANEL_REASONS.map(
    (r) =>
      html`<tr><th scope="row"><a href="/panel/payments?reason=${r}">${word(OUTCOMES, r)}</a></th><td>${count(all.byReason.get(r) ?? 0)}</td><td>${percent(all.byReason.get(r) ?? 0, failed)}</td></tr>`,
  );
  const banks = [...new Set(outcomes.map((o) => o.bank))].map((bank) => {
    const t = tally(outcomes.filter((o) => o.bank === bank));
    return html`<tr><th scope="row"><a href="/panel/payments?bank=${encodeURIComponent(bank)}">${bank}</a></th><td>${count(t.attempts)}</td><td>${count(t.captured)}</td><td>${percent(t.captured, t.attempts)}</td>${reasonCells(t)}</tr>`;
  });
  return html`<p class="big">Başarı oranı <strong id="success-rate">${percent(all.captured, all.attempts)}</strong></p>
<p class="muted">Son 30 günün sonuçlanan kart denemelerinden tahsil edilenler: ${count(all.captured)} / ${count(all.attempts)}.</p>
<h3>Başarısız denemelerin nedenleri</h3>
${scroll("Başarısız denemelerin nedenleri", html`<table id="reasons"><thead><tr><th scope="col">Neden</th><th scope="col">Deneme</th><th scope="col">Payı</th></tr></thead><tbody>${reasons}</tbody></table>`)}
<h3>Bankaya göre</h3>
${
  banks.length === 0
    ? html`<p>Son 30 günde kart denemesi yok.</p>`
    : scroll(
        "Bankaya göre kart denemeleri",
        html`<table id="banks"><thead><tr><th scope="col">Banka</th><th scope="col">Deneme</th><th scope="col">Tahsil edilen</th><th scope="col">Başarı oranı</th>${reasonHeads}</tr></thead><tbody>${banks}</tbody></table>`,
      )
}`;
}

function payoutsBody(payouts: readonly PayoutDueRow[]): SafeHtml {
  if (payouts.length === 0) return html`<p>Bekleyen aktarım yok.</p>`;
  const rows = payouts.map(
    (p) =>
      html`<tr><th scope="row">${dateTr(p.valueDate)}</th><td>${money(p.amount)}</td><td>${p.count === null ? "—" : count(p.count)}</td><td>${
        p.batchId === null
          ? "Valör gününde aktarıma eklenecek"
          : html`<a href="/panel/payouts/${encodeURIComponent(p.batchId)}">Aktarım hazır</a>`
      }</td></tr>`,
  );
  return scroll(
    "Gelecek aktarımlar",
    html`<table id="payouts-due"><thead><tr><th scope="col">Valör günü</th><th scope="col">Net tutar</th><th scope="col">Ödeme sayısı</th><th scope="col">Durum</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

/** The dashboard's sections, before the acceptance status the overview ends with. */
export function dashboardBody(f: DashboardFacts): SafeHtml {
  return html`${totalsBody(f.days)}
<p><a href="/panel/payments?status=captured">Tahsil edilen ödemeler</a></p>
<h2>Son 30 gün</h2>
${chart(f.days)}${daysTable(f.days)}
<h2>Kart denemeleri</h2>
${successBody(f.outcomes)}
<h2>İadeler ve bağlantılar</h2>
<div class="stats"><div class="stat"><h3>İadeler (30 gün)</h3><dl><dt>Onaylanan</dt><dd id="refunds-count">${count(f.refunds.count)}</dd><dt>Toplam</dt><dd id="refunds-sum">${money(f.refunds.sum)}</dd></dl></div>
<div class="stat"><h3>Açık ödeme bağlantıları</h3><dl><dt>Bağlantı</dt><dd id="links-count">${count(f.links.count)}</dd><dt>Toplam</dt><dd id="links-sum">${money(f.links.sum)}</dd></dl><p><a href="/panel/links">Bağlantılar</a></p></div></div>
<h2>Gelecek aktarımlar</h2>
${payoutsBody(f.payouts)}`;
}
