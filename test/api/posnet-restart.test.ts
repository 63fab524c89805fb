import { describe, expect, it } from "vitest";
import { POSNET_SIM_ACCOUNT } from "../../src/bank/posnet/sim/accounts";
import { createPosnetSimulator } from "../../src/bank/posnet/sim/routes";
import { formClient } from "../../src/http/sandbox/form-client";
import { SECOND_MS } from "../../src/limits";
import { kasaProcess, type KasaProcess } from "../support/kasa-process";
import { useRestartRig, type RestartFiles } from "../support/restart-rig";
import { cardFields } from "./payments-flow";
import { APPROVE, BANK, operationOf, POSNET_SEED } from "./posnet-flow";

// Issue 33, crash safety: a kasa process dies while its oosTranData (or reverse) is on the wire.
// The bank (one Posnet simulator shared by both processes) did or did not receive it; the next
// process on the same database finds out by asking (agreement), never by sending it again.

let files: RestartFiles;
const rig = useRestartRig<KasaProcess>("kasa-posnet-restart-", (f) => {
  files = f;
});

const NEVER = new Promise<Response>(() => {});

type Mode = "forward" | "forward-then-die" | "die-before-send";

function bank() {
  const sim = createPosnetSimulator({
    accounts: [POSNET_SIM_ACCOUNT],
    nowMs: () => files.clock.nowMs(),
    nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
  });
  const modes: Record<string, Mode> = { oosTranData: "forward", reverse: "forward" };
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const mode = modes[operationOf(init.body)] ?? "forward";
    if (mode === "die-before-send") return NEVER;
    const answer = await sim.api(new Request(`${BANK}/sim-posnet/PosnetWebService/XML`, { method: "POST", body: init.body as BodyInit }));
    return mode === "forward-then-die" ? NEVER : answer;
  };
  const charges = () =>
    sim
      .calls()
      .filter((c) => !["oosRequestData", "oosResolveMerchantData"].includes(c.operation))
      .map((c) => c.operation);
  return { sim, modes, fetch, charges };
}

async function open(b: ReturnType<typeof bank>, seed = false): Promise<KasaProcess> {
  return rig.track(await kasaProcess({ path: files.path, clock: files.clock, seed: seed ? POSNET_SEED : undefined, bankFetch: b.fetch }));
}

/** The buyer up to the callback post, which is left running (the process dies under it). */
async function payUntilCallback(k: KasaProcess, b: ReturnType<typeof bank>, paymentRef: string, code: string): Promise<void> {
  const route = (url: string, init: RequestInit) =>
    url.startsWith(BANK) ? b.sim.gate(new Request(url, init)) : Promise.resolve(k.runtime.app.request(url, init));
  void formClient(route, ["http://kasa.test", BANK]).post("http://kasa.test/handoff", cardFields(paymentRef, APPROVE));
  const claimed = async () => await k.store.q.bank.authClaimed((await k.store.q.attempts.byPayment(code))[0]?.id ?? "");
  for (let i = 0; i < 100 && !(await claimed()); i++) await new Promise((r) => setTimeout(r, 10));
}

async function created(k: KasaProcess, tx: string) {
  const r = await k.post("/v1/payments", { amount: 10_000, partnerTxCode: tx, terminalId: "T-P3D", returnUrl: "https://shop.example/r" });
  return { code: r.json.paymentCode as string, ref: r.json.paymentRef as string };
}

describe("issue 33: a process that dies while oosTranData is on the wire", () => {
  it.each([
    ["the bank charged", "forward-then-die", "captured"],
    ["oosTranData never reached the bank", "die-before-send", "failed"],
  ] as const)("%s: the next process asks agreement and records %s; oosTranData is sent once", async (_name, mode, status) => {
    const b = bank();
    b.modes.oosTranData = mode;
    const first = await open(b, true);
    const p = await created(first, `r-${mode}`);
    await payUntilCallback(first, b, p.ref, p.code);
    expect((await first.store.q.attempts.byPayment(p.code))[0]?.status).toBe("capturing");
    await rig.stop(first);

    const second = await open(b);
    await second.advance(151 * SECOND_MS);
    expect((await second.store.q.payments.get(p.code))?.status).toBe(status);
    expect(b.charges()).toEqual(mode === "forward-then-die" ? ["oosTranData", "agreement"] : ["agreement"]);
  });
});

describe("issue 33: a process that dies while a reverse is on the wire", () => {
  it("the bank reversed it: the next process finds the reverse (agreement), approves the refund, never sends reverse again", async () => {
    const b = bank();
    const first = await open(b, true);
    const p = await created(first, "r-void");
    await payUntilCallback(first, b, p.ref, p.code);
    for (let i = 0; i < 100 && (await first.store.q.payments.get(p.code))?.status !== "captured"; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await first.store.q.payments.get(p.code))?.status).toBe("captured");
    b.modes.reverse = "forward-then-die";
    void first.post(`/v1/payments/${p.code}/refunds/void`, { partnerRefundCode: "rv-1" });
    for (let i = 0; i < 100 && !b.charges().includes("reverse"); i++) await new Promise((r) => setTimeout(r, 10));
    const refundId = (await first.store.q.refunds.allPending())[0]!.id;
    expect(await first.store.q.refunds.get(refundId)).toMatchObject({ status: "pending", bankReference: "?reverse" });
    await rig.stop(first);

    const second = await open(b);
    await second.runDue();
    expect((await second.store.q.refunds.get(refundId))?.status).toBe("approved");
    expect((await second.store.q.payments.get(p.code))?.status).toBe("voided");
    expect(b.charges()).toEqual(["oosTranData", "reverse", "agreement"]);
  });
});
