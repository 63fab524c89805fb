import { DEMO_BINS } from "../../src/bank/test-cards";
import { markOpened } from "../../src/domain/payment-links/service";
import { createLinkPayment } from "../../src/domain/payments/create";
import { TEST_SEED } from "../support/fixtures";
import { formClient, type Outcome } from "../../src/http/sandbox/form-client";
import type { Harness, Reply } from "../support/harness";
import type { ConnectionRow } from "../../src/store/rows";
import type { PaymentRow } from "../../src/store/rows-money";

// Shared steps of the payment and handoff API tests (not a test file itself).

export const BASE = "http://kasa.test";
export const RETURN_URL = "https://shop.example/checkout/done";
/** Any 3-digit CVV works (product 6); this one appears nowhere else in the fixtures. */
export const CVV = "857";
export const EXPIRY = { expireMonth: "12", expireYear: "34" };

let seq = 0;
export const nextTxCode = (): string => `order-${++seq}`;

/** Body fields of POST /v1/payments to change; any value, so tests can send wrong types too. */
export type CreateInput = Record<string, unknown>;

export const createBody = (over: CreateInput = {}): Record<string, unknown> => ({
  amount: 10_000,
  partnerTxCode: nextTxCode(),
  terminalId: "T-1",
  returnUrl: RETURN_URL,
  ...over,
});

export const createPayment = (h: Harness, over: CreateInput = {}, key?: string): Promise<Reply> =>
  h.post("/v1/payments", createBody(over), key === undefined ? undefined : { key });

export const clientOf = (h: Harness) => formClient((url, init) => h.runtime.app.request(url, init), [BASE], 20, h.allow500);

export const cardFields = (paymentRef: string, pan: string, over: Record<string, string> = {}): Record<string, string> => ({
  paymentRef,
  pan,
  ...EXPIRY,
  cv2: CVV,
  ...over,
});

/** The buyer's browser posts the card to the handoff URL and follows the auto-submit to the ACS. */
export const handOff = (h: Harness, paymentRef: string, pan: string, over: Record<string, string> = {}): Promise<Outcome> =>
  clientOf(h).post(`${BASE}/handoff`, cardFields(paymentRef, pan, over));

/** At the ACS page: type the code and press a button; answers where the browser was sent. */
export async function answerAcs(h: Harness, acs: Outcome, otp = "123456", button = "confirm"): Promise<Outcome> {
  const form = acs.page?.forms[0];
  if (!form) throw new Error(`no ACS form: ${acs.page?.status} ${acs.page?.body.slice(0, 300)}`);
  return clientOf(h).submit(form, { otp }, button);
}

/** Handoff, ACS and callback: the whole browser journey of one card. */
export async function pay(h: Harness, paymentRef: string, pan: string, otp = "123456"): Promise<{ acs: Outcome; done: Outcome }> {
  const acs = await handOff(h, paymentRef, pan);
  return { acs, done: await answerAcs(h, acs, otp) };
}

/** Luhn check digit for `body` (the PAN without its last digit). */
export function luhnComplete(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

// ---- fixtures and probes -------------------------------------------------------------------

type Seed = typeof TEST_SEED;
type ConnectionSeed = NonNullable<Seed["connections"]>[number];
type PartnerSeed = NonNullable<Seed["partners"]>[number];
type TerminalSeed = NonNullable<Seed["terminals"]>[number];

/** TEST_SEED with the test's changes to vpos-1, ptn_test and extra rows. */
export function seedWith(o: {
  connection?: Partial<ConnectionSeed>;
  partner?: Partial<PartnerSeed>;
  psp?: { active: boolean };
  connections?: ConnectionSeed[];
  terminals?: TerminalSeed[];
  holds?: Seed["holds"];
}): Seed {
  return {
    ...TEST_SEED,
    psps: [{ id: "psp-1", active: o.psp?.active ?? true }],
    connections: [...TEST_SEED.connections!.map((c) => ({ ...c, ...o.connection })), ...(o.connections ?? [])],
    partners: TEST_SEED.partners!.map((p) => (p.id === "ptn_test" ? { ...p, ...o.partner } : p)),
    terminals: [...TEST_SEED.terminals!, ...(o.terminals ?? [])],
    holds: o.holds ?? null,
  };
}

/** Event types queued for a payment, oldest first (the outbox, product 11). */
export async function eventsOf(h: Harness, paymentCode: string): Promise<string[]> {
  return (await h.store.q.webhooks.list({ partnerId: null, status: null, limit: 10_000 }))
    .map((d) => JSON.parse(d.body) as { type: string; paymentCode?: string; occurredAt: string })
    .filter((b) => b.paymentCode === paymentCode)
    .reverse()
    .map((b) => b.type);
}

export const paymentCount = async (h: Harness): Promise<number> => await h.store.q.fixtures.paymentCount();

export const paymentRow = async (h: Harness, code: string) => {
  const row = await h.store.q.payments.get(code);
  if (!row) throw new Error(`no payment ${code}`);
  return row;
};

/** Creates and pays with an approved card: a captured payment that keeps using limits. */
export async function capturedPayment(h: Harness, over: CreateInput = {}): Promise<string> {
  const r = await createPayment(h, over);
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
  const { done } = await pay(h, r.json.paymentRef, "4000001100000009");
  if (!done.leftTo?.includes("status=captured")) throw new Error(`not captured: ${done.leftTo} ${done.page?.body.slice(0, 400)}`);
  return r.json.paymentCode as string;
}

/** The refusal page's code, or null on a generic page (product 6.5, 16). */
export const pageCode = (body: string): string | null => /Hata kodu<\/dt><dd><code>([^<]+)<\/code>/.exec(body)?.[1] ?? null;

/** The traceId the page shows (product 6.5). */
export const pageTraceId = (body: string): string | null => /İzleme no<\/dt><dd><code>([^<]+)<\/code>/.exec(body)?.[1] ?? null;

/**
 * A payment made through a link, as the link pages make it: the link created by the API, opened
 * (pending -> launched), then `createLinkPayment` with the link's base amount as the principal.
 */
export async function linkPaymentOf(
  h: Harness,
  o: { terminalId?: string; baseAmount?: number; amount?: number; installment?: number; returnUrl?: string } = {},
): Promise<PaymentRow> {
  const terminalId = o.terminalId ?? "T-1";
  const baseAmount = o.baseAmount ?? 10_000;
  const link = await h.post("/v1/payment-links", { amount: baseAmount, terminalId });
  if (link.status !== 201) throw new Error(`link: ${link.status} ${link.text}`);
  const partner = (await h.store.q.partners.get("ptn_test"))!;
  return h.store.write(async (tx) => {
    const nowMs = h.clock.nowMs();
    await markOpened(tx, h.deps, link.json.id, nowMs);
    const input = {
      partner,
      linkId: link.json.id as string,
      terminalId,
      n: await tx.links.nextAttemptSeq(link.json.id),
      amount: o.amount ?? baseAmount,
      principal: baseAmount,
      installment: o.installment ?? 1,
      description: null,
      returnUrl: o.returnUrl ?? "http://kasa.test/l/done",
    };
    return await createLinkPayment(tx, h.deps, input, nowMs);
  });
}

/**
 * An operator tightens a bank connection's limits (product 4) after payments were made: the only
 * way usage can exceed a limit at 3D start that was met at creation. A named store operation,
 * so the connection-limit totals stay what the payments say.
 */
export async function tightenConnection(h: Harness, limits: Partial<ConnectionRow>, connectionId = "vpos-1"): Promise<void> {
  await h.store.write(async (tx) => await tx.catalog.upsertConnection({ ...(await tx.catalog.connection(connectionId))!, ...limits }));
}

/**
 * TEST_SEED plus terminal T-FX on a connection that accepts foreign cards, and the whole demo BIN
 * table that ships with the sandbox (product 6): every test card resolves as in the sandbox.
 */
export const TEST_CARDS_SEED = {
  ...seedWith({
    connections: [{ id: "vpos-fx", psp: "psp-1", bank: "sim", active: true, acceptsForeignCards: true }],
    terminals: [
      {
        id: "T-FX",
        partner: "ptn_test",
        connection: "vpos-fx",
        installments: [1, 3],
        bank: "Demo Bank A",
        rates: [
          { count: 1, rateBps: 250 },
          { count: 3, rateBps: 500 },
        ],
      },
    ],
  }),
  // The whole demo BIN table that ships with the sandbox (product 6).
  bins: DEMO_BINS.map((b) => ({ ...b })),
};
