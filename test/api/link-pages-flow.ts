import { expect } from "vitest";
import { decodeEntities, formClient, type HtmlForm, type Outcome, type Visit } from "../../src/http/sandbox/form-client";
import type { Harness } from "../support/harness";
import type { PaymentRow } from "../../src/store/rows-money";

// Shared steps of the hosted link page tests (not a test file itself): a buyer's browser without
// JavaScript, driven through the pages by the form-following client.

export const BASE = "http://kasa.test";
export const REDIRECT_URL = "https://shop.example/orders/42";
export const CVV = "857";
export const EXPIRY = { expireMonth: "12", expireYear: "34" };
export const OTP = "123456";

/** Test cards of product 6. */
export const CARDS = {
  bonus: "4000001100000009",
  world: "4000002200000006",
  maximum: "5400006600000006",
  debit: "4000003300000003",
  prepaid: "4000004400000000",
  foreign: "4000005500000006",
  declinedAt3d: "5400007700000003",
  failsAuthentication: "4000008800000007",
  insufficientFunds: "4000009900000004",
  installmentsBlocked: "4000001200000008",
  unresolved: "3400001400000004",
} as const;

export const linkClient = (h: Harness) => formClient((url, init) => h.runtime.app.request(url, init), [BASE], 20, h.allow500);

export type LinkJson = { id: string; token: string; url: string; status: string; [k: string]: unknown };

export async function createLink(h: Harness, over: Record<string, unknown> = {}): Promise<LinkJson> {
  const r = await h.post("/v1/payment-links", { amount: 123_456, terminalId: "T-1", ...over });
  expect(r.status, r.text).toBe(201);
  return r.json as LinkJson;
}

export const linkJson = async (h: Harness, id: string) => (await h.get(`/v1/payment-links/${id}`)).json;

export const pageUrl = (token: string, path = ""): string => `${BASE}/l/${token}${path}`;

export const openPage = (h: Harness, token: string): Promise<Outcome> => linkClient(h).get(pageUrl(token));

/** POST /l/{token}/options as the page's script sends it. */
export const optionsOf = (h: Harness, token: string, body: unknown) => h.post(`/l/${token}/options`, body, { key: null });

export function formById(visit: Visit | null, id: string): HtmlForm {
  const form = visit?.forms.find((f) => f.id === id);
  if (!form) throw new Error(`no form #${id} on ${visit?.url} (${visit?.status}): ${visit?.body.slice(0, 600)}`);
  return form;
}

/** Visible text of a page, tags stripped, whitespace folded. */
export const textOf = (visit: Visit | null): string =>
  (visit?.body ?? "")
    .replace(/<(style|script)\b[\s\S]*?<\/\1>/gi, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&[#a-z0-9]+;/gi, (entity) => decodeEntities(entity))
    .replace(/\s+/g, " ")
    .trim();

/** The count values the radios of a page offer. */
export const offeredCounts = (visit: Visit | null): number[] =>
  [...(visit?.body ?? "").matchAll(/name="installment" value="(\d+)"/g)].map((m) => Number(m[1]));

export const cardFields = (pan: string, over: Record<string, string> = {}) => ({ pan, ...EXPIRY, cv2: CVV, ...over });

/** The steps without JavaScript: first 8 digits -> options -> card form -> pay; stops where the relay answers. */
export async function payInSteps(h: Harness, token: string, pan: string, installment: number): Promise<Outcome> {
  const client = linkClient(h);
  const page = await client.get(pageUrl(token));
  const options = await client.submit(formById(page.page, "bin-form"), { bin: pan.slice(0, 8) });
  const card = await client.submit(formById(options.page, "options-form"), { installment: String(installment) });
  return client.submit(formById(card.page, "card-form"), cardFields(pan));
}

/** The one-page form (what the script sends), without the steps. */
export async function payOnePage(h: Harness, token: string, pan: string, installment: number): Promise<Outcome> {
  const client = linkClient(h);
  const page = await client.get(pageUrl(token));
  return client.submit(formById(page.page, "pay-form"), { ...cardFields(pan), installment: String(installment) });
}

/** At the ACS page: the one-time code and a button; answers where the browser ended. */
export async function answerAcs(h: Harness, acs: Outcome, otp = OTP, button = "confirm"): Promise<Outcome> {
  const form = acs.page?.forms[0];
  if (!form || !acs.page?.url.endsWith("/sim-bank/acs"))
    throw new Error(`not at the ACS: ${acs.page?.status} ${acs.page?.url} ${textOf(acs.page).slice(0, 400)}`);
  return linkClient(h).submit(form, { otp }, button);
}

/** The link's payments, oldest first. */
export async function paymentsOfLink(h: Harness, linkId: string): Promise<PaymentRow[]> {
  const rows: PaymentRow[] = [];
  for (const code of await h.store.q.linkCheckout.paymentCodes(linkId)) rows.push((await h.store.q.payments.get(code))!);
  return rows;
}

/** Event types queued for a link (payment_link.*) and its payments (payment.*), oldest first. */
export async function eventsOfLink(h: Harness, linkId: string): Promise<string[]> {
  const codes = new Set((await paymentsOfLink(h, linkId)).map((p) => p.code));
  return (await h.store.q.webhooks.list({ partnerId: null, status: null, limit: 10_000 }))
    .map((d) => JSON.parse(d.body) as { type: string; paymentCode?: string; paymentLinkId?: string })
    .filter((b) => b.paymentLinkId === linkId || (b.paymentCode !== undefined && codes.has(b.paymentCode)))
    .reverse()
    .map((b) => b.type);
}

/** The CSP form-action sources of a response. */
export const formActionOf = (visit: Visit): string[] =>
  /form-action ([^;]+)/
    .exec(visit.headers.get("content-security-policy") ?? "")?.[1]
    ?.trim()
    .split(/\s+/) ?? [];
