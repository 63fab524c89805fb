import { xmlOfBody } from "../../src/bank/posnet/sim/api";
import { posnetSimulatorSettings } from "../../src/bank/posnet/sim/settings";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { formClient, type Outcome } from "../../src/http/sandbox/form-client";
import { harness, type Harness, type HarnessOptions } from "../support/harness";
import { BASE, cardFields, createPayment, TEST_CARDS_SEED } from "./payments-flow";

// Issue 33 test support: kasa with the Posnet adapter against its own Posnet simulator, in-process.
// The simulator answers at https://bank.test (routed to the app by the harness); the buyer's
// browser is the form client, following kasa's and the bank's auto-submitting pages.

export const BANK = "https://bank.test";

export const APPROVE = "4000001100000009";
export const AUTH_FAILS = "4000008800000007";
export const NO_FUNDS = "4000009900000004";
export const DECLINE_AT_3D = "5400007700000003";
export const REFUND_DECLINED = "4000001500000005";

export const POSNET_SEED: SeedFile = {
  ...TEST_CARDS_SEED,
  connections: [
    ...(TEST_CARDS_SEED.connections ?? []),
    { id: "vpos-posnet", psp: "psp-1", bank: "posnet", acceptsForeignCards: true, posnet: posnetSimulatorSettings(BANK, 300) },
  ],
  terminals: [
    ...(TEST_CARDS_SEED.terminals ?? []),
    {
      id: "T-P3D",
      partner: "ptn_test",
      connection: "vpos-posnet",
      installments: [1, 3],
      bank: "Demo YapıKredi",
      rates: [
        { count: 1, rateBps: 199 },
        { count: 3, rateBps: 450 },
      ],
    },
  ],
} as SeedFile;

/** The operation a request body carries (`oosTranData`, `agreement`, ...). */
export function operationOf(body: unknown): string {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : (body as Uint8Array);
  const xml = new TextDecoder("latin1").decode(xmlOfBody(bytes));
  return /<tid>[^<]*<\/tid>(?:<tranDateRequired>1<\/tranDateRequired>)?<(\w+)>/.exec(xml)?.[1] ?? "";
}

type Transport = NonNullable<HarnessOptions["estSim"]>["transport"];

/** A harness whose Posnet traffic is recorded (and may be tampered with through `transport`). */
export async function posnetHarness(opts: { transport?: Transport; slowMs?: number } = {}) {
  const sent: string[] = [];
  const h = await harness({
    seed: POSNET_SEED,
    estSim: {
      slowMs: opts.slowMs ?? 1_000,
      transport: async (url, init, send) => {
        sent.push(operationOf(init.body));
        return opts.transport ? opts.transport(url, init, send) : send();
      },
    },
  });
  return Object.assign(h, { sent, trans: () => sent.filter((s) => s === "oosTranData").length });
}

export type PosnetHarness = Awaited<ReturnType<typeof posnetHarness>>;

export const buyerOf = (h: Harness) => formClient((url, init) => h.runtime.app.request(url, init), [BASE, BANK], 20, h.allow500);

export async function posnetPayment(h: Harness, amount = 10_000, installment?: number) {
  const r = await createPayment(h, { terminalId: "T-P3D", amount, ...(installment ? { installment } : {}) });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
  return { paymentCode: r.json.paymentCode as string, paymentRef: r.json.paymentRef as string };
}

/** The buyer's whole journey: handoff -> bank 3D page -> callback -> 303 to the shop. */
export const payAtBank = (h: Harness, paymentRef: string, pan: string): Promise<Outcome> =>
  buyerOf(h).post(`${BASE}/handoff`, cardFields(paymentRef, pan));

/** Up to the bank's answer, not posted: the callback the bank's page would auto-submit, and its URL. */
export async function callbackOf(h: Harness, paymentRef: string, pan: string): Promise<{ url: string; body: string }> {
  const atGate = await formClient((url, init) => h.runtime.app.request(url, init), [BASE], 20, h.allow500).post(
    `${BASE}/handoff`,
    cardFields(paymentRef, pan),
  );
  const gateForm = atGate.page?.forms[0];
  if (!gateForm) throw new Error(`no gate form: ${atGate.page?.status} ${atGate.page?.body.slice(0, 300)}`);
  const bankPage = await formClient((url, init) => h.runtime.app.request(url, init), [BANK], 20, h.allow500).submit(gateForm);
  const callbackForm = bankPage.page?.forms[0];
  if (!callbackForm) throw new Error(`no callback form: ${bankPage.page?.status} ${bankPage.page?.body.slice(0, 300)}`);
  return { url: callbackForm.action, body: new URLSearchParams(callbackForm.fields.map((f) => [f.name, f.value])).toString() };
}

export const postRaw = async (h: Harness, url: string, body: string) =>
  h.runtime.app.request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
