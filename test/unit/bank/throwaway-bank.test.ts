import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import { checkConnection, listConnections } from "../../../cli/commands/connections";
import type { BankGateway, RefundResult } from "../../../src/bank/gateway";
import { bankSettings, type BankModule, type ConnectionBank } from "../../../src/bank/module";
import { BANKS } from "../../../src/bank/registry";
import { parseSeed, SeedError } from "../../../src/domain/partners/seed";
import { createPayment, eventsOf, paymentRow, seedWith } from "../../api/payments-flow";
import { harness, type Harness } from "../../support/harness";

// Issue 29: a bank is a module. A bank defined here, in the test, and added to the list of banks,
// is usable from the seed file, the CLI and the sandbox's handoff with no other change to kasa.

const GATE_PATH = "/sim-toy/gate";
const SECRET = "toy-secret-4711";

const toySettings = v.strictObject({
  gateUrl: v.pipe(v.string("must be a string"), v.url("must be a URL")),
  secret: v.pipe(v.string("must be a string"), v.minLength(8, "must be at least 8 characters")),
});
const stored = (c: ConnectionBank) => v.parse(toySettings, JSON.parse(c.bankConfig ?? "null"));

const approved = (reference: string): RefundResult => ({
  status: "approved",
  procReturnCode: "00",
  authCode: "TOY",
  errMsg: null,
  bankReference: reference,
  nextCheckAtMs: null,
});

/** A bank that approves everything; its gate sends the buyer straight back to the callback. */
function toyAdapter(baseUrl: string): BankGateway {
  return {
    bank: "toy",
    acsOrigin: new URL(baseUrl).origin,
    start3d: async (input) => ({
      kind: "form",
      action: `${baseUrl}${GATE_PATH}`,
      fields: { attempt: input.attemptId, callback: input.callbackUrl },
    }),
    verifyCallback: async (callback, context) =>
      callback.form.attempt === context.attemptId ? { ok: true, authenticated: true, bankProfile: "toy" } : { ok: false },
    capture: async (input) => ({ approved: true, authCode: "TOY", bankReference: `toy-${input.attemptId}` }),
    captureStatus: async (input) => ({ approved: true, authCode: "TOY", bankReference: `toy-${input.attemptId}` }),
    void: async (input) => approved(`void-${input.idempotencyKey}`),
    refund: async (input) => approved(`credit-${input.idempotencyKey}`),
    refundStatus: async (input) => approved(input.refundReference),
  };
}

const toyBank: BankModule = {
  id: "toy",
  name: "Toy bank",
  settings: bankSettings(toySettings, (s) => s),
  redact: (c) => ({ ...stored(c), secret: "[redacted]" }),
  columns: (c) => ({ model: "toy", api: stored(c).gateUrl }),
  check: async (c) => ({
    answered: true,
    credentialsAccepted: true,
    latencyMs: 3,
    message: "toy bank says hello",
    target: stored(c).gateUrl,
    facts: { probe: "hello" },
  }),
  secret: false,
  createAdapter: (_c, env) => toyAdapter(env.baseUrl),
  simulator: {
    serve: "sandbox",
    routes: () => [
      {
        method: "POST",
        path: GATE_PATH,
        buyerFacing: true,
        readsForm: true,
        // 307 keeps the POST: the callback receives the gate's own fields.
        handle: ({ form }) => new Response(null, { status: 307, headers: { location: form?.callback ?? "/" } }),
      },
    ],
  },
  demo: null,
  payouts: "operator",
  buyer: null,
  formCharsets: {},
};

const BANKS_WITH_TOY = [...BANKS, toyBank];

const toyConnection = (settings: unknown = { gateUrl: "https://toy.example/gate", secret: SECRET }) => ({
  id: "vpos-toy",
  psp: "psp-1",
  bank: "toy",
  active: true,
  acceptsForeignCards: true,
  toy: settings,
});

const toySeed = (settings?: unknown) =>
  seedWith({
    connections: [toyConnection(settings)],
    terminals: [{ id: "T-TOY", partner: "ptn_test", connection: "vpos-toy", installments: [1], rates: [{ count: 1, rateBps: 199 }] }],
  });

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("issue 29: a bank defined in a test is usable from the seed file", () => {
  it('accepts "bank": "toy" with its settings under "toy"', () => {
    const seed = parseSeed(toySeed(), BANKS_WITH_TOY);
    expect(seed.connections?.find((c) => c.id === "vpos-toy")).toMatchObject({ bank: "toy", toy: { secret: SECRET } });
  });

  it("refuses its bad settings with their path, never with the value", () => {
    const run = () => parseSeed(toySeed({ gateUrl: "https://toy.example/gate", secret: "short" }), BANKS_WITH_TOY);
    expect(run).toThrow(SeedError);
    expect(run).toThrow("connections[1].toy.secret");
  });

  it("is unknown to a kasa whose list of banks lacks it", () => {
    expect(() => parseSeed(toySeed())).toThrow("connections[1].bank");
  });

  it("requires its settings on its connections and refuses them on another bank's", async () => {
    await expect(harness({ banks: BANKS_WITH_TOY, seed: toySeed(null) })).rejects.toThrow(
      'connections[1].toy: is required when bank is "toy"',
    );
    const onSim = seedWith({ connections: [{ ...toyConnection(), bank: "sim" }] });
    await expect(harness({ banks: BANKS_WITH_TOY, seed: onSim })).rejects.toThrow('connections[1].toy: only for bank "toy"');
  });
});

describe("issue 29: a bank defined in a test is usable from the CLI", () => {
  it("connections list shows its settings as its descriptor redacts them", async () => {
    h = await harness({ banks: BANKS_WITH_TOY, seed: toySeed() });
    const { rows, text } = await listConnections(h.store, BANKS_WITH_TOY);
    expect(rows.find((r) => r.connectionId === "vpos-toy")).toMatchObject({
      bank: "toy",
      toy: { gateUrl: "https://toy.example/gate", secret: "[redacted]" },
    });
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    expect(text()).toContain("https://toy.example/gate");
    expect(text()).not.toContain(SECRET);
  });

  it("connections check runs its probe", async () => {
    h = await harness({ banks: BANKS_WITH_TOY, seed: toySeed() });
    const { json, text, ok } = await checkConnection(h.store, "vpos-toy", BANKS_WITH_TOY);
    expect(ok).toBe(true);
    expect(json).toMatchObject({ connectionId: "vpos-toy", bank: "toy", probe: "hello", answered: true, credentialsAccepted: true });
    expect(text()).toContain("vpos-toy (toy, https://toy.example/gate)");
  });
});

describe("issue 29: a bank defined in a test is usable from the sandbox and the app", () => {
  it("a payment on its terminal goes through the handoff, its gate and the callback to captured", async () => {
    h = await harness({ banks: BANKS_WITH_TOY, seed: toySeed(), config: { mode: "sandbox" } });
    const { paymentCode } = (await createPayment(h, { terminalId: "T-TOY" })).json;
    const r = await h.post(`/sandbox/payments/${paymentCode}/simulate`, { card: "4000001100000009" });
    expect(r.json).toMatchObject({ paymentCode, outcome: "captured", status: "captured" });
    expect(await eventsOf(h, paymentCode)).toEqual(["payment.captured"]);
    expect((await paymentRow(h, paymentCode)).status).toBe("captured");
  });

  it("its simulator is served in sandbox mode only", async () => {
    h = await harness({ banks: BANKS_WITH_TOY, seed: toySeed() });
    const res = await h.runtime.app.request(`http://kasa.test${GATE_PATH}`, { method: "POST", body: "" });
    expect(res.status).toBe(404);
  });
});
