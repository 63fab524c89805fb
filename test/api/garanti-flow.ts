import { callbackHash, CALLBACK_HASH_PARAMS } from "../../src/bank/garanti/crypt";
import { encodeFormText, parseFormBytes } from "../../src/bank/form-bytes";
import { GARANTI_SIM_ACCOUNT } from "../../src/bank/garanti/sim/accounts";
import { garantiSimulatorSettings } from "../../src/bank/garanti/sim/settings";
import type { SeedFile } from "../../src/domain/partners/seed-schema";
import { formClient, type Outcome } from "../../src/http/sandbox/form-client";
import { harness, type Harness, type HarnessOptions } from "../support/harness";
import { BASE, cardFields, createPayment, TEST_CARDS_SEED } from "./payments-flow";

// Issue 31 test support: kasa with the Garanti adapter against its own Garanti simulator,
// in-process. The simulator answers at https://bank.test (routed to the app by the harness's
// simulator option); the buyer's browser is the form client, following kasa's and the bank's
// auto-submitting pages.

export const BANK = "https://bank.test";

export const garantiSettings = (model: "3d" | "3d_pay") => garantiSimulatorSettings(BANK, model, 300);

const garantiTerminal = (id: string, connection: string) => ({
  id,
  partner: "ptn_test",
  connection,
  installments: [1, 3],
  bank: "Demo Garanti BBVA",
  rates: [
    { count: 1, rateBps: 189 },
    { count: 3, rateBps: 440 },
  ],
});

/** The test cards' seed plus T-G3D (model 3d) and T-GPAY (model 3d_pay) on Garanti connections. */
export const GARANTI_SEED: SeedFile = {
  ...TEST_CARDS_SEED,
  connections: [
    ...(TEST_CARDS_SEED.connections ?? []),
    { id: "vpos-garanti", psp: "psp-1", bank: "garanti", acceptsForeignCards: true, garanti: garantiSettings("3d") },
    { id: "vpos-garanti-pay", psp: "psp-1", bank: "garanti", acceptsForeignCards: true, garanti: garantiSettings("3d_pay") },
  ],
  terminals: [
    ...(TEST_CARDS_SEED.terminals ?? []),
    garantiTerminal("T-G3D", "vpos-garanti"),
    garantiTerminal("T-GPAY", "vpos-garanti-pay"),
  ],
} as SeedFile;

/** T-G3D on the simulator that a sandbox at `baseUrl` serves itself. */
const sandboxSeed = (baseUrl: string): SeedFile =>
  ({
    ...GARANTI_SEED,
    connections: (GARANTI_SEED.connections ?? []).map((c) =>
      c.id === "vpos-garanti" ? { ...c, garanti: garantiSimulatorSettings(baseUrl, "3d", 300) } : c,
    ),
  }) as SeedFile;

type Transport = NonNullable<HarnessOptions["estSim"]>["transport"];

/** The request type a GVPSRequest body names (`sales`, `void`, `refund`, `orderinq`, `orderhistoryinq`). */
export const typeOf = (init: RequestInit): string =>
  /<Type>(\w+)<\/Type>/.exec(new TextDecoder().decode(init.body as Uint8Array))?.[1] ?? "?";

/** A harness whose Garanti traffic is recorded (and may be tampered with through `transport`). */
export async function garantiHarness(opts: { transport?: Transport; slowMs?: number; sandbox?: string } = {}) {
  const sent: string[] = [];
  const h = await harness({
    seed: opts.sandbox ? sandboxSeed(opts.sandbox) : GARANTI_SEED,
    ...(opts.sandbox && { config: { mode: "sandbox" as const, baseUrl: opts.sandbox } }),
    // The harness's simulator option serves every bank's simulator and routes adapters to the app.
    estSim: {
      slowMs: opts.slowMs ?? 1_000,
      transport: async (url, init, send) => {
        sent.push(typeOf(init));
        return opts.transport ? opts.transport(url, init, send) : send();
      },
    },
  });
  return Object.assign(h, { sent, sales: () => sent.filter((t) => t === "sales").length });
}

export type GarantiHarness = Awaited<ReturnType<typeof garantiHarness>>;

export const buyerOf = (h: Harness) => formClient((url, init) => h.runtime.app.request(url, init), [BASE, BANK], 20, h.allow500);

/** Creates a payment on a Garanti terminal; answers its code and ref. */
export async function garantiPayment(
  h: Harness,
  terminalId: string,
  amount = 10_000,
): Promise<{ paymentCode: string; paymentRef: string }> {
  const r = await createPayment(h, { terminalId, amount });
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
  return { paymentCode: r.json.paymentCode, paymentRef: r.json.paymentRef };
}

/** The buyer's whole journey: handoff -> bank gate -> callback -> 303 to the shop. */
export const payAtBank = (h: Harness, paymentRef: string, pan: string): Promise<Outcome> =>
  buyerOf(h).post(`${BASE}/handoff`, cardFields(paymentRef, pan));

/** Up to the bank's answer, not posted: the callback form the gate's page would auto-submit, and its URL. */
export async function callbackOf(h: Harness, paymentRef: string, pan: string): Promise<{ url: string; body: string }> {
  const buyer = formClient((url, init) => h.runtime.app.request(url, init), [BASE], 20, h.allow500);
  const atGate = await buyer.post(`${BASE}/handoff`, cardFields(paymentRef, pan));
  const gateForm = atGate.page?.forms[0];
  if (!gateForm) throw new Error(`no gate form: ${atGate.page?.status} ${atGate.page?.body.slice(0, 300)}`);
  const bankPage = await formClient((url, init) => h.runtime.app.request(url, init), [BANK], 20, h.allow500).submit(gateForm);
  const callbackForm = bankPage.page?.forms[0];
  if (!callbackForm) throw new Error(`no callback form: ${bankPage.page?.status} ${bankPage.page?.body.slice(0, 300)}`);
  return { url: callbackForm.action, body: encodeFormText(callbackForm.fields.map((f) => [f.name, f.value] as const)) };
}

export const postRaw = async (h: Harness, url: string, body: string) =>
  h.runtime.app.request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });

/** A callback body changed and signed again with the store key (what only the bank could do). */
export function resign(body: string, change: Record<string, string>): string {
  const fields = parseFormBytes(new TextEncoder().encode(body)).map(
    ([n, v]) => [n, n in change ? (change[n] as string) : new TextDecoder().decode(v)] as [string, string],
  );
  const values = new Map(fields);
  const hash = callbackHash(
    CALLBACK_HASH_PARAMS.map((n) => new TextEncoder().encode(values.get(n) ?? "")),
    GARANTI_SIM_ACCOUNT.storeKey,
  );
  return encodeFormText(fields.map(([n, v]) => [n, n === "hash" ? hash : v] as [string, string]));
}
