import type { BankModule } from "../../bank/module";
import { BANKS } from "../../bank/registry";
/**
 * A browser-less, form-following client (the sandbox buyer of docs/contract.md, The sandbox, and the tests): it reads HTML forms with a small
 * regex parser, submits them like a browser WITHOUT JavaScript would, follows auto-submitting
 * forms through their <noscript> button, and follows redirects while they stay on the app's own
 * origins. It stops at the first redirect that leaves them (the partner's returnUrl) and reports
 * the Location. No cookies: kasa's pages need none.
 *
 *   const client = formClient((url, init) => h.runtime.app.request(url, init), ["http://kasa.test"]);
 *   let out = await client.post("http://kasa.test/handoff", { paymentRef, pan, ... }); // -> ACS page
 *   out = await client.submit(out.page!.forms[0]!, { otp: "123456" }, "confirm");   // -> leftTo
 */

export type FetchLike = (url: string, init: RequestInit) => Response | Promise<Response>;

export type HtmlField = { name: string; value: string };
export type HtmlButton = { name: string | null; value: string; label: string };

export type HtmlForm = {
  id: string | null;
  /** Absolute URL the form posts to. */
  action: string;
  method: "GET" | "POST";
  /** What a submit sends before the user changes anything (hidden, text, checked, selected). */
  fields: HtmlField[];
  /** Submit buttons, including those inside <noscript>. */
  buttons: HtmlButton[];
  /** True when a nonce'd script submits it and a <noscript> button does the same without JS. */
  autoSubmit: boolean;
  /** `accept-charset` (lower case), as a browser encodes the POST with it: a bank's own callback charset. */
  charset: string | null;
};

export type Visit = { method: string; url: string; status: number; headers: Headers; body: string; forms: HtmlForm[] };

export type Outcome = {
  /** The page where following stopped (a page that needs the user), or null if it left the origins. */
  page: Visit | null;
  /** The Location of the redirect that left the app's origins (not followed). */
  leftTo: string | null;
  /** Every response on the way, in order, for header checks (CSP, Cache-Control). */
  trail: Visit[];
};

const ENTITY = /&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos|#39);/gi;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

export const decodeEntities = (text: string): string =>
  text.replace(ENTITY, (whole, body: string) => {
    const lower = body.toLowerCase();
    if (lower.startsWith("#x")) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith("#")) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return NAMED[lower] ?? whole;
  });

/** Attributes of one start tag: name="v", name='v', name=v, or a bare boolean name. */
export function parseAttributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const inner = tag.replace(/^<[a-z0-9]+/i, "").replace(/\/?>$/, "");
  const re = /([^\s"'=<>/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
  for (let m = re.exec(inner); m !== null; m = re.exec(inner)) {
    const name = m[1]!.toLowerCase();
    if (!(name in out)) out[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
  }
  return out;
}

const stripTags = (html: string): string =>
  decodeEntities(html.replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();

function readFields(inner: string): HtmlField[] {
  const fields: HtmlField[] = [];
  const controls = /<input\b[^>]*>|<textarea\b[^>]*>([\s\S]*?)<\/textarea>|<select\b[^>]*>([\s\S]*?)<\/select>/gi;
  for (let m = controls.exec(inner); m !== null; m = controls.exec(inner)) {
    const tag = m[0].slice(0, m[0].indexOf(">") + 1);
    const a = parseAttributes(tag);
    if (a.name === undefined || "disabled" in a) continue;
    if (/^<input/i.test(tag)) {
      const type = (a.type ?? "text").toLowerCase();
      if (["submit", "button", "reset", "image", "file"].includes(type)) continue;
      if ((type === "radio" || type === "checkbox") && !("checked" in a)) continue;
      fields.push({ name: a.name, value: a.value ?? (type === "checkbox" || type === "radio" ? "on" : "") });
    } else if (/^<textarea/i.test(tag)) {
      fields.push({ name: a.name, value: decodeEntities(m[1] ?? "") });
    } else {
      const options = [...(m[2] ?? "").matchAll(/<option\b[^>]*>([\s\S]*?)(?=<option\b|$)/gi)];
      const chosen = options.find((o) => "selected" in parseAttributes(o[0].slice(0, o[0].indexOf(">") + 1))) ?? options[0];
      if (!chosen) continue;
      const oa = parseAttributes(chosen[0].slice(0, chosen[0].indexOf(">") + 1));
      fields.push({ name: a.name, value: oa.value ?? stripTags(chosen[1] ?? "") });
    }
  }
  return fields;
}

function readButtons(inner: string): HtmlButton[] {
  const buttons: HtmlButton[] = [];
  for (const m of inner.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>|<input\b[^>]*type\s*=\s*["']?submit[^>]*>/gi)) {
    const a = parseAttributes(m[0].slice(0, m[0].indexOf(">") + 1));
    const type = (a.type ?? "submit").toLowerCase();
    if (type !== "submit") continue;
    buttons.push({ name: a.name ?? null, value: a.value ?? "", label: m[1] === undefined ? (a.value ?? "") : stripTags(m[1]) });
  }
  return buttons;
}

/** Every <form> of a page, with its action resolved against the page's URL. */
export function parseForms(html: string, pageUrl: string): HtmlForm[] {
  const scripts = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1] ?? "");
  const submittedIds = new Set(
    scripts.flatMap((s) => [...s.matchAll(/getElementById\(\s*["']([^"']+)["']\s*\)\.submit\(\)/g)].map((m) => m[1]!)),
  );
  return [...html.matchAll(/<form\b[^>]*>([\s\S]*?)<\/form>/gi)].map((m) => {
    const a = parseAttributes(m[0].slice(0, m[0].indexOf(">") + 1));
    const inner = m[1] ?? "";
    const id = a.id ?? null;
    const hasNoscriptButton = /<noscript>[\s\S]*?<button\b[\s\S]*?<\/noscript>/i.test(inner);
    return {
      id,
      action: new URL(a.action ?? "", pageUrl).href,
      method: (a.method ?? "get").toUpperCase() === "POST" ? "POST" : "GET",
      fields: readFields(inner),
      buttons: readButtons(inner),
      autoSubmit: id !== null && submittedIds.has(id) && hasNoscriptButton,
      charset: a["accept-charset"]?.toLowerCase() ?? null,
    };
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

type Encoders = ReadonlyMap<string, (pairs: ReadonlyArray<readonly [string, string]>) => string>;

/** A form body as a browser encodes it: UTF-8, or the charset the form asks for where a bank's page does. */
function encodeForm(params: URLSearchParams, charset: string | null, encoders: Encoders): string {
  const encode = charset === null ? undefined : encoders.get(charset);
  return encode ? encode([...params]) : params.toString();
}

/**
 * `allow500`: set only when a test provokes a 500 on purpose; otherwise an HTML 500 on a page flow
 * throws with its body (the page pipeline's "no unexpected 500" guard, as apiRequester's).
 * `banks`: whose form charsets the client can encode (the registry's list unless told).
 */
export function formClient(
  fetch: FetchLike,
  origins: readonly string[],
  maxSteps = 20,
  allow500 = false,
  banks: readonly BankModule[] = BANKS,
) {
  const isOwn = (url: string): boolean => origins.includes(new URL(url).origin);
  const encoders: Encoders = new Map(banks.flatMap((b) => Object.entries(b.formCharsets)));

  async function navigate(method: string, url: string, body: string | null): Promise<Outcome> {
    const trail: Visit[] = [];
    let next: { method: string; url: string; body: string | null } = { method, url, body };
    for (let step = 0; step < maxSteps; step++) {
      const headers: Record<string, string> = next.body ? { "content-type": "application/x-www-form-urlencoded" } : {};
      const res = await fetch(next.url, { method: next.method, headers, body: next.body ?? undefined });
      const text = await res.text();
      if (res.status === 500 && !allow500) throw new Error(`unexpected 500 on ${next.method} ${next.url}: ${text}`);
      const isHtml = (res.headers.get("content-type") ?? "").includes("text/html");
      const visit: Visit = {
        method: next.method,
        url: next.url,
        status: res.status,
        headers: res.headers,
        body: text,
        forms: isHtml ? parseForms(text, next.url) : [],
      };
      trail.push(visit);
      if (REDIRECTS.has(res.status)) {
        const location = new URL(res.headers.get("location") ?? "", next.url).href;
        if (!isOwn(location)) return { page: null, leftTo: location, trail };
        const keep = res.status === 307 || res.status === 308;
        next = { method: keep ? next.method : "GET", url: location, body: keep ? next.body : null };
        continue;
      }
      const auto = visit.forms.find((f) => f.autoSubmit);
      if (!auto) return { page: visit, leftTo: null, trail };
      // What a browser without JavaScript does: the user presses the <noscript> button.
      next = toRequest(auto, {}, null);
      if (!isOwn(next.url)) return { page: visit, leftTo: null, trail };
    }
    throw new Error(`form client: more than ${maxSteps} steps from ${url}`);
  }

  function toRequest(form: HtmlForm, values: Record<string, string>, button: string | null) {
    const params = new URLSearchParams();
    const overridden = new Set(Object.keys(values));
    for (const f of form.fields) if (!overridden.has(f.name)) params.append(f.name, f.value);
    for (const [k, v] of Object.entries(values)) params.append(k, v);
    if (button !== null) {
      const b = form.buttons.find((x) => x.value === button || x.label === button);
      if (!b) throw new Error(`form client: no button ${JSON.stringify(button)} in form ${form.action}`);
      if (b.name !== null) params.append(b.name, b.value);
    }
    if (form.method === "GET") {
      const target = new URL(form.action);
      target.search = params.toString();
      return { method: "GET", url: target.href, body: null };
    }
    return { method: "POST", url: form.action, body: encodeForm(params, form.charset, encoders) };
  }

  return {
    get: (url: string) => navigate("GET", url, null),
    /** A form POST the partner's checkout makes the browser send (urlencoded). */
    post: (url: string, fields: Record<string, string>) => navigate("POST", url, new URLSearchParams(fields).toString()),
    /** Fills `values` into the form (over its defaults) and presses `button` (by value or label). */
    submit(form: HtmlForm, values: Record<string, string> = {}, button: string | null = null): Promise<Outcome> {
      const r = toRequest(form, values, button);
      return navigate(r.method, r.url, r.body);
    },
  };
}

export type FormClient = ReturnType<typeof formClient>;
