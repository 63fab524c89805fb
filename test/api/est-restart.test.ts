import { describe, expect, it } from "vitest";
import { createEstSimulator, EST_SIM_ACCOUNT } from "../../src/bank/est/sim/simulator";
import { formClient } from "../../src/http/sandbox/form-client";
import { SECOND_MS } from "../../src/limits";
import { kasaProcess, type KasaProcess } from "../support/kasa-process";
import { useRestartRig, type RestartFiles } from "../support/restart-rig";
import { BANK, EST_SEED } from "./est-flow";
import { cardFields } from "./payments-flow";

// Product 17 / issue 16, crash safety: a kasa process dies while its Auth (or Void) is on the wire.
// The bank (one EST simulator shared by both processes) did or did not receive it; the next
// process on the same database finds out by asking (ORDERSTATUS), never by sending it again.

let files: RestartFiles;
const rig = useRestartRig<KasaProcess>("kasa-est-restart-", (f) => {
  files = f;
});

const APPROVE = "4000001100000009";
const NEVER = new Promise<Response>(() => {});

type Mode = "forward" | "forward-then-die" | "die-before-send";

function bank() {
  const sim = createEstSimulator({ accounts: [EST_SIM_ACCOUNT], nowMs: () => files.clock.nowMs(), nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U" });
  const modes = { Auth: "forward" as Mode, Void: "forward" as Mode };
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const body = new TextDecoder("latin1").decode(init.body as Uint8Array);
    const type = /<Type>(\w+)<\/Type>/.exec(body)?.[1] as keyof typeof modes | undefined;
    const mode = type && type in modes ? modes[type] : "forward";
    if (mode === "die-before-send") return NEVER;
    const answer = await sim.api(new Request(`${BANK}/sim-est/fim/api`, { method: "POST", body: init.body as BodyInit }));
    return mode === "forward-then-die" ? NEVER : answer;
  };
  return { sim, modes, fetch };
}

async function open(b: ReturnType<typeof bank>, seed = false): Promise<KasaProcess> {
  return rig.track(await kasaProcess({ path: files.path, clock: files.clock, seed: seed ? EST_SEED : undefined, bankFetch: b.fetch }));
}

/** The buyer up to the callback post, which is left running (the process dies under it). */
async function payUntilCallback(k: KasaProcess, b: ReturnType<typeof bank>, paymentRef: string, code: string): Promise<void> {
  const route = (url: string, init: RequestInit) =>
    url.startsWith(BANK) ? b.sim.gate(new Request(url, init)) : Promise.resolve(k.runtime.app.request(url, init));
  void formClient(route, ["http://kasa.test", BANK]).post("http://kasa.test/handoff", cardFields(paymentRef, APPROVE));
  // Let the relay, the gate and the callback run up to the bank call.
  const claimed = async () => await k.store.q.bank.authClaimed((await k.store.q.attempts.byPayment(code))[0]?.id ?? "");
  for (let i = 0; i < 100 && !(await claimed()); i++) await new Promise((r) => setTimeout(r, 10));
}

describe("product 17: a process that dies while the bank call is on the wire", () => {
  it.each([
    ["the bank approved the Auth", "forward-then-die", "captured"],
    ["the Auth never reached the bank", "die-before-send", "failed"],
  ] as const)("%s: the next process asks ORDERSTATUS and records %s; Auth is sent once", async (_name, mode, status) => {
    const b = bank();
    b.modes.Auth = mode;
    const first = await open(b, true);
    const created = await first.post("/v1/payments", {
      amount: 10_000,
      partnerTxCode: `r-${mode}`,
      terminalId: "T-E3D",
      returnUrl: "https://shop.example/r",
    });
    const code = created.json.paymentCode as string;
    await payUntilCallback(first, b, created.json.paymentRef, code);
    expect((await first.store.q.attempts.byPayment(code))[0]?.status).toBe("capturing");
    await rig.stop(first);

    const second = await open(b);
    await second.advance(151 * SECOND_MS);
    expect((await second.store.q.payments.get(code))?.status).toBe(status);
    expect(b.sim.calls().map((c) => c.type)).toEqual(mode === "forward-then-die" ? ["Auth", "ORDERSTATUS"] : ["ORDERSTATUS"]);
  });
});

describe("product 17: a process that dies while a Void is on the wire", () => {
  it("the bank voided it: the next process finds the order voided (ORDERSTATUS), approves the refund, never sends Void again", async () => {
    const b = bank();
    const first = await open(b, true);
    const created = await first.post("/v1/payments", {
      amount: 10_000,
      partnerTxCode: "r-void",
      terminalId: "T-E3D",
      returnUrl: "https://shop.example/r",
    });
    const code = created.json.paymentCode as string;
    await payUntilCallback(first, b, created.json.paymentRef, code);
    for (let i = 0; i < 100 && (await first.store.q.payments.get(code))?.status !== "captured"; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await first.store.q.payments.get(code))?.status).toBe("captured");
    b.modes.Void = "forward-then-die";
    void first.post(`/v1/payments/${code}/refunds/void`, { partnerRefundCode: "rv-1" });
    for (let i = 0; i < 100 && !b.sim.calls().some((c) => c.type === "Void"); i++) await new Promise((r) => setTimeout(r, 10));
    const refundId = (await first.store.q.refunds.allPending())[0]!.id;
    expect(await first.store.q.refunds.get(refundId)).toMatchObject({ status: "pending", bankReference: "?void" });
    await rig.stop(first);

    const second = await open(b);
    await second.runDue();
    expect((await second.store.q.refunds.get(refundId))?.status).toBe("approved");
    expect((await second.store.q.payments.get(code))?.status).toBe("voided");
    expect(b.sim.calls().map((c) => c.type)).toEqual(["Auth", "Void", "ORDERSTATUS"]);
  });
});
