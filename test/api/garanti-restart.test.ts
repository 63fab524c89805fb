import { describe, expect, it } from "vitest";
import { GARANTI_SIM_ACCOUNT } from "../../src/bank/garanti/sim/accounts";
import { createGarantiSimulator } from "../../src/bank/garanti/sim/simulator";
import { formClient } from "../../src/http/sandbox/form-client";
import { SECOND_MS } from "../../src/limits";
import { kasaProcess, type KasaProcess } from "../support/kasa-process";
import { useRestartRig, type RestartFiles } from "../support/restart-rig";
import { BANK, GARANTI_SEED, typeOf } from "./garanti-flow";
import { cardFields } from "./payments-flow";

// Issue 31, crash safety: a kasa process dies while its `sales` is on the wire. The bank (one
// Garanti simulator shared by both processes) did or did not receive it; the next process on the
// same database finds out by asking (`orderinq`), never by sending it again.

let files: RestartFiles;
const rig = useRestartRig<KasaProcess>("kasa-garanti-restart-", (f) => {
  files = f;
});

const APPROVE = "4000001100000009";
const NEVER = new Promise<Response>(() => {});

type Mode = "forward" | "forward-then-die" | "die-before-send";

function bank() {
  const sim = createGarantiSimulator({
    accounts: [GARANTI_SIM_ACCOUNT],
    nowMs: () => files.clock.nowMs(),
    nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
  });
  const modes: Record<string, Mode> = { sales: "forward" };
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const mode = modes[typeOf(init)] ?? "forward";
    if (mode === "die-before-send") return NEVER;
    const answer = await sim.api(new Request(`${BANK}/sim-garanti/VPServlet`, { method: "POST", body: init.body as BodyInit }));
    return mode === "forward-then-die" ? NEVER : answer;
  };
  return { sim, modes, fetch };
}

describe("issue 31: a process that dies while the provision is on the wire", () => {
  it.each([
    ["the bank approved the sales", "forward-then-die", "captured"],
    ["the sales never reached the bank", "die-before-send", "failed"],
  ] as const)("%s (%s): the next process asks orderinq and records %s; sales is sent once", async (_name, mode, status) => {
    const b = bank();
    b.modes.sales = mode;
    const first = rig.track(await kasaProcess({ path: files.path, clock: files.clock, seed: GARANTI_SEED, bankFetch: b.fetch }));
    const created = await first.post("/v1/payments", {
      amount: 10_000,
      partnerTxCode: `g-${mode}`,
      terminalId: "T-G3D",
      returnUrl: "https://shop.example/r",
    });
    const code = created.json.paymentCode as string;
    const route = (url: string, init: RequestInit) =>
      url.startsWith(BANK) ? b.sim.gate(new Request(url, init)) : Promise.resolve(first.runtime.app.request(url, init));
    void formClient(route, ["http://kasa.test", BANK]).post("http://kasa.test/handoff", cardFields(created.json.paymentRef, APPROVE));
    const claimed = async () => await first.store.q.bank.authClaimed((await first.store.q.attempts.byPayment(code))[0]?.id ?? "");
    for (let i = 0; i < 100 && !(await claimed()); i++) await new Promise((r) => setTimeout(r, 10));
    expect((await first.store.q.attempts.byPayment(code))[0]?.status).toBe("capturing");
    await rig.stop(first);

    const second = rig.track(await kasaProcess({ path: files.path, clock: files.clock, bankFetch: b.fetch }));
    await second.advance(151 * SECOND_MS);
    expect((await second.store.q.payments.get(code))?.status).toBe(status);
    expect(b.sim.calls().map((c) => c.type)).toEqual(mode === "forward-then-die" ? ["sales", "orderinq"] : ["orderinq"]);
  });
});
