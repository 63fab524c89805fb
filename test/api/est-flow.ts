import { EST_SIM_ACCOUNT } from "../../src/bank/est/sim/accounts";
import { encodeFormBytes, parseFormBytes } from "../../src/bank/form-bytes";
import { asciiBytes, ver3Hash } from "../../src/bank/est/hash";
import { encodeIso88599 } from "../../src/bank/iso-8859-9";
import { formClient, type Outcome } from "../../src/http/sandbox/form-client";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { estSimulatorSettings } from "../../src/bank/est/sim/settings";
import { harness, type Harness, type HarnessOptions } from "../support/harness";
import { BASE, cardFields, createPayment, TEST_CARDS_SEED } from "./payments-flow";

// Product 17 test support: kasa with the EST adapter against its own EST simulator, in-process.
// The simulator answers at https://bank.test (routed to the app by the harness); the buyer's
// browser is the form client, following kasa's and the bank's auto-submitting pages.

export const BANK = "https://bank.test";

export const estSettings = (model: "3d" | "3d_pay") => estSimulatorSettings(BANK, model, 300);

const estTerminal = (id: string, connection: string) => ({
  id,
  partner: "ptn_test",
  connection,
  installments: [1, 3],
  bank: "Demo EST Bank",
  rates: [
    { count: 1, rateBps: 199 },
    { count: 3, rateBps: 450 },
  ],
});

/** The test cards' seed plus T-E3D (model 3d) and T-EPAY (model 3d_pay) on EST connections. */
export const EST_SEED: SeedFile = {
  ...TEST_CARDS_SEED,
  connections: [
    ...(TEST_CARDS_SEED.connections ?? []),
    { id: "vpos-est", psp: "psp-1", bank: "est", acceptsForeignCards: true, est: estSettings("3d") },
    { id: "vpos-est-pay", psp: "psp-1", bank: "est", acceptsForeignCards: true, est: estSettings("3d_pay") },
  ],
  terminals: [...(TEST_CARDS_SEED.terminals ?? []), estTerminal("T-E3D", "vpos-est"), estTerminal("T-EPAY", "vpos-est-pay")],
} as SeedFile;

export type Sent = { url: string; type: string };

/** A harness whose EST traffic is recorded (and may be tampered with through `transport`). */
export async function estHarness(opts: { transport?: NonNullable<HarnessOptions["estSim"]>["transport"]; slowMs?: number } = {}) {
  const sent: Sent[] = [];
  const h = await harness({
    seed: EST_SEED,
    estSim: {
      slowMs: opts.slowMs ?? 1_000,
      transport: async (url, init, send) => {
        const body = new TextDecoder("latin1").decode(init.body as Uint8Array);
        sent.push({ url, type: /<Type>(\w+)<\/Type>/.exec(body)?.[1] ?? (/ORDERSTATUS/.test(body) ? "ORDERSTATUS" : "ORDERHISTORY") });
        return opts.transport ? opts.transport(url, init, send) : send();
      },
    },
  });
  return Object.assign(h, { sent, auths: () => sent.filter((s) => s.type === "Auth").length });
}

export type EstHarness = Awaited<ReturnType<typeof estHarness>>;

export const buyerOf = (h: Harness) => formClient((url, init) => h.runtime.app.request(url, init), [BASE, BANK], 20, h.allow500);

/** Creates a payment on an EST terminal; answers its code and ref. */
export async function estPayment(h: Harness, terminalId: string, amount = 10_000): Promise<{ paymentCode: string; paymentRef: string }> {
  const r = await createPayment(h, { terminalId, amount });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
  return { paymentCode: r.json.paymentCode, paymentRef: r.json.paymentRef };
}

/** The buyer's whole journey: handoff -> bank gate -> callback -> 303 to the shop. */
export const payAtBank = (h: Harness, paymentRef: string, pan: string): Promise<Outcome> =>
  buyerOf(h).post(`${BASE}/handoff`, cardFields(paymentRef, pan));

/**
 * Up to the bank's answer, not posted: the callback form the simulator's page would auto-submit,
 * as the exact ISO-8859-9 bytes a browser sends, and the URL it goes to.
 */
export async function callbackOf(h: Harness, paymentRef: string, pan: string): Promise<{ url: string; body: string }> {
  const buyer = formClient((url, init) => h.runtime.app.request(url, init), [BASE], 20, h.allow500);
  const atGate = await buyer.post(`${BASE}/handoff`, cardFields(paymentRef, pan));
  const gateForm = atGate.page?.forms[0];
  if (!gateForm) throw new Error(`no gate form: ${atGate.page?.status} ${atGate.page?.body.slice(0, 300)}`);
  const bankPage = await formClient((url, init) => h.runtime.app.request(url, init), [BANK], 20, h.allow500).submit(gateForm);
  const callbackForm = bankPage.page?.forms[0];
  if (!callbackForm) throw new Error(`no callback form: ${bankPage.page?.status} ${bankPage.page?.body.slice(0, 300)}`);
  return {
    url: callbackForm.action,
    body: encodeFormBytes(callbackForm.fields.map((f) => [f.name, encodeIso88599(f.value)] as const)),
  };
}

export const postRaw = async (h: Harness, url: string, body: string) =>
  h.runtime.app.request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });

/** A callback body changed and signed again with the store key (what only the bank could do). */
export function resign(body: string, change: Record<string, string>): string {
  const fields = parseFormBytes(new TextEncoder().encode(body)).map(([n, v]) =>
    n in change ? ([n, asciiBytes(change[n] as string)] as [string, Uint8Array]) : [n, v],
  ) as Array<[string, Uint8Array]>;
  const unsigned = fields.filter(([n]) => n !== "HASH");
  const hash = ver3Hash(unsigned, asciiBytes(EST_SIM_ACCOUNT.storeKey));
  return encodeFormBytes([...unsigned, ["HASH", asciiBytes(hash)]]);
}
