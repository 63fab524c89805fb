import { formatTry } from "../../domain/checks/money";
import { html, raw, renderPage, toHttpUrl, type PageResponse, type SafeHtml } from "../../html";
import type { LinkRow } from "../../store/rows";

// Every URL a link page puts in a form or a link is absolute under the public base URL, as the
// link's own `url` is (docs/contract.md, The link record), so a base URL with a path behind a proxy keeps working.
//
// The shell of the hosted link pages (docs/checkout.md, Payment link pages): html.ts's page with its strict nonce CSP, plus
// the few styles the link pages add (summary, option list, card fields). Everything is served
// from kasa itself: no third-party asset, font or script.

// Contrast follows html.ts's palette (WCAG AA in light and dark); radios and links keep 44 px
// targets; the focus ring comes from html.ts's :focus-visible rule.
const LINK_CSS = [
  ".amount{font-size:1.75rem;font-weight:700;margin:0 0 .75rem;font-variant-numeric:tabular-nums}",
  "table{width:100%;border-collapse:collapse;margin:0 0 1.25rem}",
  "caption{text-align:left;font-weight:600;margin-bottom:.25rem}",
  "th,td{text-align:left;padding:.375rem .5rem .375rem 0;border-bottom:1px solid var(--line);vertical-align:top}",
  ".num{text-align:right;padding-right:0;font-variant-numeric:tabular-nums;white-space:nowrap}",
  ".note{display:block;color:var(--muted);font-size:.875rem}",
  "fieldset{border:1px solid var(--line);border-radius:8px;padding:.5rem 1rem;margin:0 0 1.25rem;min-width:0}",
  "legend{font-weight:600;padding:0 .25rem}",
  ".option{display:flex;align-items:center;gap:.75rem;border-bottom:1px solid var(--line)}",
  ".option:last-child{border-bottom:0}",
  ".option input{width:1.25rem;height:1.25rem;min-height:0;margin:0;flex:none;accent-color:var(--accent)}",
  ".option label{flex:1;display:flex;justify-content:space-between;gap:1rem;align-items:center;",
  "min-height:44px;margin:0;font-weight:400;cursor:pointer}",
  ".option .total{font-weight:600;font-variant-numeric:tabular-nums}",
  ".field{margin:0 0 1rem}",
  ".row{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:.75rem}",
  ".hint{color:var(--muted);font-size:.875rem;margin:.25rem 0 0}",
  ".status{margin:0 0 1rem}",
  ".problem{color:var(--danger);font-weight:600}",
  "a{color:var(--accent)}",
  "a.button{display:inline-flex;align-items:center;min-height:44px;padding:.625rem 1.25rem;",
  "border:1px solid var(--accent);border-radius:8px;font-weight:600;text-decoration:none}",
  "button:disabled{opacity:.6;cursor:not-allowed}",
  "[hidden]{display:none!important}",
].join("");

export interface LinkPageInput {
  title: string;
  body: SafeHtml;
  nonce: string;
  /** Origins this page's forms lead to, including where a 303 after the post goes (docs/checkout.md). */
  formActions: readonly string[];
  /** Origins the page's script may fetch from (the live installment table); none by default. */
  connect?: readonly string[];
  status?: number;
}

/**
 * renderPage with the link styles. The styles sit in a nonce'd <style> at the top of <main>, which
 * browsers apply like one in <head>; the CSP is html.ts's, plus `connect-src` when the page's script
 * fetches (default-src 'none' would block it).
 */
export function renderLinkPage(input: LinkPageInput): PageResponse {
  const body = html`<style nonce="${input.nonce}">${raw(LINK_CSS)}</style>
${input.body}`;
  const page = renderPage({ title: input.title, body, nonce: input.nonce, formActions: input.formActions, status: input.status });
  const connect = [...new Set((input.connect ?? []).map((url) => new URL(url).origin))];
  if (connect.length === 0) return page;
  const csp = `${page.headers["Content-Security-Policy"]}; connect-src ${connect.join(" ")}`;
  return { ...page, headers: { ...page.headers, "Content-Security-Policy": csp } };
}

/** "Tek çekim" or "3 taksit", as the ACS page words it. */
export const installmentText = (count: number): string => (count > 1 ? `${count} taksit` : "Tek çekim");

/** An option row's words: its count and the total the buyer pays with it. */
export const optionText = (count: number, totalAmount: number): string => `${installmentText(count)}: ${formatTry(totalAmount)}`;

/** A plain link to a page (a GET, so no form-action is involved). */
export const linkButton = (url: string, label = "Ödeme sayfasına dön"): SafeHtml =>
  html`<div class="actions"><a class="button" href="${toHttpUrl(url).href}">${label}</a></div>`;

/** The origins the link's pay form leads to: kasa, and the partner's redirectUrl for a failed attempt. */
export const payFormActions = (baseUrl: string, link: LinkRow): string[] =>
  link.redirectUrl === null ? [baseUrl] : [baseUrl, link.redirectUrl];
