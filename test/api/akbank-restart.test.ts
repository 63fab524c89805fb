import { describe, expect, it } from "vitest";
import { createAkbankSimulator } from "../../src/bank/akbank/sim/routes";
import { formClient } from "../../src/http/sandbox/form-client";
import { SECOND_MS } from "../../src/limits";
import { kasaProcess, type KasaProcess } from "../support/kasa-process";
import { useRestartRig, type RestartFiles } from "../support/restart-rig";
import { AKBANK_SEED, BANK, txnCodeOf } from "./akbank-flow";
import { cardFields } from "./payments-flow";

// Issue 34, crash safety: a kasa process dies while its sale (1000) or void (1003) is on the wire.
// The bank (one simulator shared by both processes) did or did not receive it; the next process
// on the same database finds out by asking (order history 1010), never by sending it again.

let files: RestartFiles;
const rig = useRestartRig<KasaProcess>("kasa-akbank-restart-", (f) => {
  files = f;
});

const APPROVE = "4000001100000009";
const NEVER = new Promise<Response>(() => {});

type Mode = "forward" | "forward-then-die" | "die-before-send";

function bank() {
  const sim = createAkbankSimulator({ nowMs: () => files.clock.nowMs(), nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U" });
  const modes: Record<string, Mode> = { "1000": "forward", "1003": "forward" };
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const mode = modes[txnCodeOf(init)] ?? "forward";
    if (mode === "die-before-send") return NEVER;
    const answer = await sim.api(new Request(url, { method: "POST", headers: init.headers, body: init.body as BodyInit }));
    return mode === "forward-then-die" ? NEVER : answer;
  };
  return { sim, modes, fetch, codes: () => sim.state.calls().map((c) => c.txnCode) };
}

async function open(b: ReturnType<typeof bank>, seed = false): Promise<KasaProcess> {
  return rig.track(await kasaProcess({ path: files.path, clock: files.clock, seed: seed ? AKBANK_SEED : undefined, bankFetch: b.fetch }));
}

async function payUntilCallback(k: KasaProcess, b: ReturnType<typeof bank>, paymentRef: string, code: string): Promise<void> {
  const route = (url: string, init: RequestInit) =>
    url.startsWith(BANK) ? b.sim.gate(new Request(url, init)) : Promise.resolve(k.runtime.app.request(url, init));
  void formClient(route, ["http://kasa.test", BANK]).post("http://kasa.test/handoff", cardFields(paymentRef, APPROVE));
  const claimed = async () => await k.store.q.bank.authClaimed((await k.store.q.attempts.byPayment(code))[0]?.id ?? "");
  for (let i = 0; i < 100 && !(await claimed()); i++) await new Promise((r) => setTimeout(r, 10));
}

async function created(k: KasaProcess, tx: string) {
  const res = await k.post("/v1/payments", { amount: 10_000, partnerTxCode: tx, terminalId: "T-A3D", returnUrl: "https://shop.example/r" });
  return { code: res.json.paymentCode as string, ref: res.json.paymentRef as string };
}

describe("issue 34: a process that dies while the sale is on the wire", () => {
  it.each([
    ["the bank approved the sale", "forward-then-die", "captured"],
    ["the sale never reached the bank", "die-before-send", "failed"],
  ] as const)("%s: the next process asks 1010 and records %s; the sale is sent once", async (_name, mode, status) => {
    const b = bank();
    b.modes["1000"] = mode;
    const first = await open(b, true);
    const p = await created(first, `r-${mode}`);
    await payUntilCallback(first, b, p.ref, p.code);
    expect((await first.store.q.attempts.byPayment(p.code))[0]?.status).toBe("capturing");
    await rig.stop(first);

    const second = await open(b);
    await second.advance(151 * SECOND_MS);
    expect((await second.store.q.payments.get(p.code))?.status).toBe(status);
    expect(b.codes()).toEqual(mode === "forward-then-die" ? ["1000", "1010"] : ["1010"]);
  });
});

describe("issue 34: a process that dies while a void is on the wire", () => {
  it("the bank voided it: the next process finds V in the history, approves the refund, never sends 1003 again", async () => {
    const b = bank();
    const first = await open(b, true);
    const p = await created(first, "r-void");
    await payUntilCallback(first, b, p.ref, p.code);
    for (let i = 0; i < 100 && (await first.store.q.payments.get(p.code))?.status !== "captured"; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await first.store.q.payments.get(p.code))?.status).toBe("captured");
    b.modes["1003"] = "forward-then-die";
    void first.post(`/v1/payments/${p.code}/refunds/void`, { partnerRefundCode: "rv-1" });
    for (let i = 0; i < 100 && !b.codes().includes("1003"); i++) await new Promise((r) => setTimeout(r, 10));
    const refundId = (await first.store.q.refunds.allPending())[0]!.id;
    expect(await first.store.q.refunds.get(refundId)).toMatchObject({ status: "pending", bankReference: "?void" });
    await rig.stop(first);

    const second = await open(b);
    await second.runDue();
    expect((await second.store.q.refunds.get(refundId))?.status).toBe("approved");
    expect((await second.store.q.payments.get(p.code))?.status).toBe("voided");
    expect(b.codes()).toEqual(["1000", "1003", "1010"]);
  });
});
