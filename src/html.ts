import { Sensitive } from "./sensitive";

/**
 * Markup that is already safe to emit. Only `html` and `raw()` make one, so a plain string that
 * reaches a template is always escaped: the default is the safe path.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** A response the HTTP layer sends as is; pages never touch h3, so they stay testable as data. */
export interface PageResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes for text and for quoted attribute values alike; every template quotes its attributes. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** The escape hatch: `text` is emitted verbatim, so it must be trusted markup (a constant). */
export const raw = (text: string): SafeHtml => new SafeHtml(text);

// null, undefined and false render nothing so `${cond && html`…`}` reads naturally; arrays join
// without separators; a Sensitive prints "[redacted]" through its own toString.
const toMarkup = (value: unknown): string => {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(toMarkup).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
};

/** Tagged template that escapes every interpolation. It escapes text, not URLs: see `toHttpUrl`. */
export const html = (strings: TemplateStringsArray, ...values: unknown[]): SafeHtml => {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += toMarkup(values[i]) + (strings[i + 1] ?? "");
  return new SafeHtml(out);
};

/** Escaping does not neutralise `javascript:` URLs, so every action/href passes through here. */
export const toHttpUrl = (url: string): URL => {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new Error(`not an absolute http(s) URL: ${JSON.stringify(url.slice(0, 80))}`);
  }
  return parsed;
};

// A nonce goes into a header and an attribute; anything outside base64(url) is our bug, and a
// short one would be guessable.
const NONCE_PATTERN = /^[A-Za-z0-9+/_-]{16,128}={0,2}$/;

// The URL parser lets `;` and `,` into hosts, which would end the directive and start another, so
// an origin must look like one exactly.
const ORIGIN_PATTERN = /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/;

const toFormActionSource = (entry: string): string => {
  // Scheme sources: for a simulated bank's gate page, which posts back to whatever callback URL
  // the merchant sent it, as a real bank's does.
  if (entry === "'self'" || entry === "https:" || entry === "http:") return entry;
  const origin = toHttpUrl(entry).origin;
  if (!ORIGIN_PATTERN.test(origin)) throw new Error(`not a CSP-safe origin: ${JSON.stringify(origin)}`);
  return origin;
};

/** form-action sources: origins only (a path in CSP would be ignored after redirects anyway). */
const toFormAction = (formActions: readonly string[]): string => {
  const sources = [...new Set(formActions.map(toFormActionSource))];
  return sources.length === 0 ? "'none'" : sources.join(" ");
};

export const toContentSecurityPolicy = (nonce: string, formActions: readonly string[]): string =>
  [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "img-src 'self' data:",
    `form-action ${toFormAction(formActions)}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");

// One stylesheet for every page: system fonts, WCAG AA contrast in light and dark, 44 px targets,
// a visible focus ring. No third-party assets, so the CSP needs no other source.
const PAGE_CSS = [
  ":root{color-scheme:light dark;--bg:#f4f5f7;--fg:#1b1e23;--muted:#4a5260;--card:#fff;",
  "--line:#c9ced6;--accent:#0b57d0;--on-accent:#fff;--danger:#b3261e}",
  "@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#eceef1;--muted:#b5bcc7;",
  "--card:#1f2227;--line:#3b414b;--accent:#8ab4f8;--on-accent:#0b1d3a;--danger:#f2b8b5}}",
  "*{box-sizing:border-box}",
  "body{margin:0;min-height:100vh;display:flex;justify-content:center;align-items:flex-start;",
  "padding:2rem 1rem;background:var(--bg);color:var(--fg);",
  'font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}',
  "main{width:100%;max-width:28rem;background:var(--card);border:1px solid var(--line);",
  "border-radius:12px;padding:1.5rem}",
  "h1{font-size:1.375rem;line-height:1.3;margin:0 0 1rem}",
  "p{margin:0 0 1rem}.muted{color:var(--muted);font-size:.9375rem}",
  "dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0 0 1.25rem}",
  "dt{color:var(--muted)}dd{margin:0;font-weight:600;font-variant-numeric:tabular-nums}",
  "label{display:block;font-weight:600;margin-bottom:.375rem}",
  "input{width:100%;font:inherit;font-size:1.125rem;padding:.625rem .75rem;min-height:44px;",
  "border:1px solid var(--muted);border-radius:8px;background:var(--card);color:var(--fg)}",
  "button{font:inherit;font-weight:600;min-height:44px;padding:.625rem 1.25rem;cursor:pointer;",
  "border:1px solid var(--accent);border-radius:8px;background:var(--accent);color:var(--on-accent)}",
  "button.secondary{background:transparent;color:var(--accent)}",
  ".actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1.25rem}",
  ":focus-visible{outline:3px solid var(--accent);outline-offset:2px}",
  ".error h1{color:var(--danger)}",
  "code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9375rem}",
].join("");

export interface PageInput {
  title: string;
  body: SafeHtml;
  nonce: string;
  /** Where forms on this page may post, including origins a 303 after that post goes to. */
  formActions: readonly string[];
  status?: number;
  /** More rules after the shared sheet (the panel's wider layout); a trusted constant. */
  extraCss?: string;
  /**
   * Default no-referrer. The panel's pages say same-origin: a browser then sends their forms' real
   * Origin (under no-referrer it sends `Origin: null`), which the panel's POSTs check.
   */
  referrerPolicy?: "no-referrer" | "same-origin";
}

/** The shell every browser-facing page uses: strict CSP, no caching (card data may be inside). */
export const renderPage = (input: PageInput): PageResponse => {
  if (!NONCE_PATTERN.test(input.nonce)) throw new Error("page nonce must be 16+ base64 characters");
  const page = html`<!doctype html>
<html lang="tr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${input.title}</title>
<style nonce="${input.nonce}">${raw(PAGE_CSS + (input.extraCss ?? ""))}</style>
</head>
<body>
<main>
${input.body}
</main>
</body>
</html>
`;
  return {
    status: input.status ?? 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": toContentSecurityPolicy(input.nonce, input.formActions),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": input.referrerPolicy ?? "no-referrer",
    },
    body: page.value,
  };
};

/** A form field value; a Sensitive one (card data for the bank) is revealed only here. */
export type FormFieldValue = string | Sensitive<string>;

export interface AutoSubmitFormInput {
  action: string;
  fields: Readonly<Record<string, FormFieldValue>>;
  nonce: string;
  /** Text of the button shown when scripts are off. */
  label: string;
}

const AUTO_SUBMIT_ID = "kasa-auto-submit";

/**
 * A POST form that submits itself (docs/checkout.md): with scripts the nonce'd one-liner submits it, without
 * them the <noscript> button does. The caller puts it in `renderPage` with the action's origin
 * in `formActions`.
 */
export const autoSubmitForm = (input: AutoSubmitFormInput): SafeHtml => {
  const action = toHttpUrl(input.action).href;
  // The bank's 3D form must carry the card (docs/decisions.md, Readings of the contract), so this is the one place it is revealed.
  const hidden = Object.entries(input.fields).map(([name, value]) => {
    const text = value instanceof Sensitive ? value.reveal() : value;
    return html`<input type="hidden" name="${name}" value="${text}">`;
  });
  return html`<form id="${AUTO_SUBMIT_ID}" method="post" action="${action}">
${hidden}
<p role="status">Yönlendiriliyorsunuz, lütfen bekleyin…</p>
<noscript><div class="actions"><button type="submit">${input.label}</button></div></noscript>
</form>
<script nonce="${input.nonce}">document.getElementById("${AUTO_SUBMIT_ID}").submit();</script>`;
};

export interface ErrorPageInput {
  /** Catalog code, or null for the generic pages (connection limits, card type: docs/checkout.md, The handoff relay and the 3D step). */
  code: string | null;
  message: string;
  traceId: string | null;
  nonce: string;
  status?: number;
}

/** docs/checkout.md, Error pages: a short message, the code and the traceId; callers never pass card data here. */
export const errorPage = (input: ErrorPageInput): PageResponse => {
  const facts = [
    input.code !== null && html`<dt>Hata kodu</dt><dd><code>${input.code}</code></dd>`,
    input.traceId !== null && html`<dt>İzleme no</dt><dd><code>${input.traceId}</code></dd>`,
  ].filter((fact) => fact !== false);
  const body = html`<div class="error">
<h1>İşlem tamamlanamadı</h1>
<p>${input.message}</p>
${facts.length > 0 && html`<dl>${facts}</dl>`}
</div>`;
  return renderPage({ title: "İşlem tamamlanamadı", body, nonce: input.nonce, formActions: [], status: input.status ?? 400 });
};
