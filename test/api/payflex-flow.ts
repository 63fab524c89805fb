import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { PAYFLEX_SIM_PATHS, payflexSimulatorSettings } from "../../src/bank/payflex/sim/settings";
import { formClient, type Outcome } from "../../src/http/sandbox/form-client";
import { harness, type Harness, type HarnessOptions } from "../support/harness";
import { BASE, cardFields, createPayment, TEST_CARDS_SEED } from "./payments-flow";

// Issue 35 test support: kasa with the PayFlex adapter against its own PayFlex simulator,
// in-process. The simulator answers at https://bank.test (routed to the app by the harness); the
// buyer's browser is the form client, following kasa's, the ACS's and the MPI's pages.

export const BANK = "https://bank.test";
export const OTP = "123456";

/** T-PF on a PayFlex connection to the simulator, besides the test cards' seed. */
export const PAYFLEX_SEED: SeedFile = {
  ...TEST_CARDS_SEED,
  connections: [
    ...(TEST_CARDS_SEED.connections ?? []),
    { id: "vpos-pf", psp: "psp-1", bank: "payflex", acceptsForeignCards: true, payflex: payflexSimulatorSettings(BANK, 300) },
  ],
  terminals: [
    ...(TEST_CARDS_SEED.terminals ?? []),
    {
      id: "T-PF",
      partner: "ptn_test",
      connection: "vpos-pf",
      installments: [1, 3],
      bank: "Demo VakıfBank",
      rates: [
        { count: 1, rateBps: 199 },
        { count: 3, rateBps: 450 },
      ],
    },
  ],
} as SeedFile;

export type Sent = { url: string; kind: string; body: string };

const kindOf = (url: string, body: string): string => {
  if (url.endsWith(PAYFLEX_SIM_PATHS.mpi)) return "enrollment";
  if (url.endsWith(PAYFLEX_SIM_PATHS.search)) return "Search";
  return /%3CTransactionType%3E(\w+)%3C/.exec(body)?.[1] ?? "other";
};

type Transport = NonNullable<HarnessOptions["estSim"]>["transport"];

/** A harness whose PayFlex traffic is recorded (and may be tampered with through `transport`). */
export async function payflexHarness(opts: { transport?: Transport; slowMs?: number } = {}) {
  const sent: Sent[] = [];
  const h = await harness({
    seed: PAYFLEX_SEED,
    estSim: {
      slowMs: opts.slowMs ?? 1_000,
      transport: async (url, init, send) => {
        const body = String(init.body ?? "");
        sent.push({ url, kind: kindOf(url, body), body });
        return opts.transport ? opts.transport(url, init, send) : send();
      },
    },
  });
  const kinds = () => sent.map((s) => s.kind);
  return Object.assign(h, { sent, kinds, sales: () => kinds().filter((k) => k === "Sale").length });
}

export type PayflexHarness = Awaited<ReturnType<typeof payflexHarness>>;

export const buyerOf = (h: Harness) => formClient((url, init) => h.runtime.app.request(url, init), [BASE, BANK], 20, h.allow500);

export async function payflexPayment(h: Harness, amount = 10_000, installment = 1): Promise<{ paymentCode: string; paymentRef: string }> {
  const r = await createPayment(h, { terminalId: "T-PF", amount, installment });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
  return { paymentCode: r.json.paymentCode, paymentRef: r.json.paymentRef };
}

/** Handoff -> enrollment -> the ACS's code page (not answered yet). */
export const toAcs = (h: Harness, paymentRef: string, pan: string): Promise<Outcome> =>
  buyerOf(h).post(`${BASE}/handoff`, cardFields(paymentRef, pan));

/** The buyer's whole journey: handoff, the ACS code, the MPI's callback, the 303 to the shop. */
export async function payAtBank(h: Harness, paymentRef: string, pan: string, otp = OTP): Promise<Outcome> {
  const acs = await toAcs(h, paymentRef, pan);
  const form = acs.page?.forms.find((f) => f.fields.some((x) => x.name === "otp"));
  if (!form) return acs;
  return buyerOf(h).submit(form, { otp }, "confirm");
}

/**
 * Up to the MPI's answer, not posted: the callback form its page would auto-submit, urlencoded as
 * a browser sends it, and the URL it goes to.
 */
export async function callbackOf(
  h: Harness,
  paymentRef: string,
  pan: string,
  otp = OTP,
): Promise<{ url: string; fields: Array<[string, string]> }> {
  const acs = await toAcs(h, paymentRef, pan);
  const form = acs.page?.forms.find((f) => f.fields.some((x) => x.name === "otp"));
  if (!form) throw new Error(`no ACS form: ${acs.page?.status} ${acs.page?.body.slice(0, 300)}`);
  // The bank's pages only: the client is not allowed to kasa, so it stops at the callback form.
  const bankOnly = formClient((url, init) => h.runtime.app.request(url, init), [BANK], 20, h.allow500);
  const atCallback = await bankOnly.submit(form, { otp }, "confirm");
  const callback = atCallback.page?.forms[0];
  if (!callback) throw new Error(`no callback form: ${atCallback.page?.status} ${atCallback.page?.body.slice(0, 300)}`);
  return { url: callback.action, fields: callback.fields.map((f) => [f.name, f.value] as [string, string]) };
}

export const formBody = (fields: ReadonlyArray<readonly [string, string]>): string =>
  fields.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join("&");

export const postRaw = async (h: Harness, url: string, body: string) =>
  h.runtime.app.request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
