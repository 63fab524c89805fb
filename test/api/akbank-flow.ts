import { AKBANK_SIM_ACCOUNT, akbankSimulatorSettings } from "../../src/bank/akbank/sim/settings";
import { callbackHash } from "../../src/bank/akbank/crypt";
import { encodeForm, parseForm } from "../../src/bank/akbank/form";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { formClient, type Outcome } from "../../src/http/sandbox/form-client";
import { harness, type Harness, type HarnessOptions } from "../support/harness";
import { BASE, cardFields, createPayment, TEST_CARDS_SEED } from "./payments-flow";

// Issue 34 test support: kasa with the AkbankPos adapter against its own AkbankPos simulator,
// in-process. The simulator answers at https://bank.test (routed to the app by the harness); the
// buyer's browser is the form client, following kasa's and the bank's auto-submitting pages.

export const BANK = "https://bank.test";

export const akbankSettings = (model: "3d" | "3d_pay") => akbankSimulatorSettings(BANK, model, 300);

const terminal = (id: string, connection: string) => ({
  id,
  partner: "ptn_test",
  connection,
  installments: [1, 3],
  bank: "Demo Akbank",
  rates: [
    { count: 1, rateBps: 199 },
    { count: 3, rateBps: 450 },
  ],
});

/** The test cards' seed plus T-A3D (model 3d) and T-APAY (model 3d_pay) on AkbankPos connections. */
export const AKBANK_SEED: SeedFile = {
  ...TEST_CARDS_SEED,
  connections: [
    ...(TEST_CARDS_SEED.connections ?? []),
    { id: "vpos-akbank", psp: "psp-1", bank: "akbank", acceptsForeignCards: true, akbank: akbankSettings("3d") },
    { id: "vpos-akbank-pay", psp: "psp-1", bank: "akbank", acceptsForeignCards: true, akbank: akbankSettings("3d_pay") },
  ],
  terminals: [...(TEST_CARDS_SEED.terminals ?? []), terminal("T-A3D", "vpos-akbank"), terminal("T-APAY", "vpos-akbank-pay")],
} as SeedFile;

/** The txnCode of a request body kasa sent (1000 sale, 1002 refund, 1003 void, 1010 history). */
export const txnCodeOf = (init: RequestInit): string =>
  /"txnCode":"(\d+)"/.exec(new TextDecoder().decode(init.body as Uint8Array))?.[1] ?? "?";

type Transport = NonNullable<HarnessOptions["estSim"]>["transport"];

/** A harness whose AkbankPos traffic is recorded by txnCode (and may be tampered with through `transport`). */
export async function akbankHarness(opts: { transport?: Transport; slowMs?: number; seed?: SeedFile } = {}) {
  const sent: string[] = [];
  const h = await harness({
    seed: opts.seed ?? AKBANK_SEED,
    estSim: {
      slowMs: opts.slowMs ?? 1_000,
      transport: async (url, init, send) => {
        sent.push(txnCodeOf(init));
        return opts.transport ? opts.transport(url, init, send) : send();
      },
    },
  });
  return Object.assign(h, { sent, sales: () => sent.filter((t) => t === "1000").length });
}

export type AkbankHarness = Awaited<ReturnType<typeof akbankHarness>>;

export const buyerOf = (h: Harness) => formClient((url, init) => h.runtime.app.request(url, init), [BASE, BANK], 20, h.allow500);

export async function akbankPayment(h: Harness, terminalId: string, amount = 10_000): Promise<{ paymentCode: string; paymentRef: string }> {
  const r = await createPayment(h, { terminalId, amount });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
  return { paymentCode: r.json.paymentCode, paymentRef: r.json.paymentRef };
}

/** The buyer's whole journey: handoff -> bank gate -> callback -> 303 to the shop. */
export const payAtBank = (h: Harness, paymentRef: string, pan: string): Promise<Outcome> =>
  buyerOf(h).post(`${BASE}/handoff`, cardFields(paymentRef, pan));

/** Up to the bank's answer, not posted: the callback form the simulator's page would auto-submit. */
export async function callbackOf(h: Harness, paymentRef: string, pan: string): Promise<{ url: string; body: string }> {
  const buyer = formClient((url, init) => h.runtime.app.request(url, init), [BASE], 20, h.allow500);
  const atGate = await buyer.post(`${BASE}/handoff`, cardFields(paymentRef, pan));
  const gateForm = atGate.page?.forms[0];
  if (!gateForm) throw new Error(`no gate form: ${atGate.page?.status} ${atGate.page?.body.slice(0, 300)}`);
  const bankPage = await formClient((url, init) => h.runtime.app.request(url, init), [BANK], 20, h.allow500).submit(gateForm);
  const callbackForm = bankPage.page?.forms[0];
  if (!callbackForm) throw new Error(`no callback form: ${bankPage.page?.status} ${bankPage.page?.body.slice(0, 300)}`);
  return { url: callbackForm.action, body: encodeForm(callbackForm.fields.map((f) => [f.name, f.value] as const)) };
}

export const postRaw = async (h: Harness, url: string, body: string) =>
  h.runtime.app.request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });

/** A callback body changed and signed again with the secret key (what only the bank could do). */
export function resign(body: string, change: Record<string, string>): string {
  const fields = parseForm(new TextEncoder().encode(body))!.map(
    ([n, v]) => [n, n in change ? (change[n] as string) : v] as [string, string],
  );
  const unsigned = fields.filter(([n]) => n !== "hash");
  const values = new Map(unsigned);
  const hash = callbackHash(AKBANK_SIM_ACCOUNT.secretKey, values.get("hashParams") ?? "", (n) => values.get(n));
  return encodeForm([...unsigned, ["hash", hash]]);
}
