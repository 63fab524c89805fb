import { describe, expect, it } from "vitest";
import { createEstSimulator, EST_SIM_ACCOUNT } from "../../src/bank/est/sim/simulator";
import { reconcileConnection } from "../../src/domain/reconciliation/run";
import { formClient } from "../../src/http/sandbox/form-client";
import { kasaProcess, type KasaProcess } from "../support/kasa-process";
import { type RestartFiles, useRestartRig } from "../support/restart-rig";
import { BANK, EST_SEED } from "./est-flow";
import { BASE, cardFields } from "./payments-flow";

// Reconciliation (docs/reconciliation.md) across a real restart: the process records the repair
// of a bank_approved order and dies before its Void reaches the bank; the next process, on the same
// database file and the same EST simulator, sends it: the bank sees exactly one Void.

const APPROVE = "4000001100000009";
const DAY = "2026-11-20";
const DECLINED = `<?xml version="1.0" encoding="ISO-8859-9"?><CC5Response><Response>Declined</Response><ProcReturnCode>05</ProcReturnCode><ErrMsg>Red</ErrMsg></CC5Response>`;

const typeOf = (body: unknown): string => {
  const text = new TextDecoder("latin1").decode(body as Uint8Array);
  return /<Type>(\w+)<\/Type>/.exec(text)?.[1] ?? (/ORDERSTATUS/.test(text) ? "ORDERSTATUS" : "ORDERHISTORY");
};

describe("reconciliation: a crash between recording the repair and calling the bank", () => {
  let files: RestartFiles;
  const rig = useRestartRig<KasaProcess>("kasa-reconcile-", (f) => {
    files = f;
  });

  it("the next process's run sends the Void; the bank voids the order exactly once; the payment stays failed", async () => {
    const sim = createEstSimulator({
      accounts: [EST_SIM_ACCOUNT],
      nowMs: () => files.clock.nowMs(),
      nonce: () => "bm9uY2Utbm9uY2Utbm9uY2U",
    });
    let misreadAuth = true;
    let dieAtVoid = true;
    const toSim = (init: RequestInit) => sim.api(new Request(`${BANK}/sim-est/fim/api`, { method: "POST", body: init.body as BodyInit }));
    const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
      const type = typeOf(init.body);
      // The process dies here: the Void never leaves it (a promise nothing settles).
      if (type === "Void" && dieAtVoid) return new Promise<Response>(() => {});
      const answer = await toSim(init);
      if (type !== "Auth" || !misreadAuth) return answer;
      misreadAuth = false;
      return new Response(DECLINED, { headers: { "content-type": "text/xml" } });
    };
    const open = async (seed: boolean) =>
      rig.track(await kasaProcess({ path: files.path, clock: files.clock, seed: seed ? EST_SEED : undefined, bankFetch: fetch }));

    const first = await open(true);
    const created = await first.post("/v1/payments", {
      amount: 10_000,
      partnerTxCode: "recon-1",
      terminalId: "T-E3D",
      returnUrl: "https://shop.example/r",
    });
    const code = created.json.paymentCode as string;
    const route = (url: string, init: RequestInit) =>
      url.startsWith(BANK) ? sim.gate(new Request(url, init)) : Promise.resolve(first.runtime.app.request(url, init));
    await formClient(route, [BASE, BANK]).post(`${BASE}/handoff`, cardFields(created.json.paymentRef, APPROVE));
    expect((await first.store.q.payments.get(code))?.status).toBe("failed");
    const attemptId = (await first.store.q.attempts.byPayment(code))[0]!.id;

    void reconcileConnection(first.runtime.deps, "vpos-est", DAY);
    for (let i = 0; i < 100 && !(await first.store.q.reconcile.repair(attemptId)); i++) await new Promise((r) => setTimeout(r, 10));
    expect(await first.store.q.reconcile.repair(attemptId)).toMatchObject({ action: "void", outcome: null });
    await rig.stop(first);
    expect(sim.calls().filter((c) => c.type === "Void")).toEqual([]);

    dieAtVoid = false;
    const second = await open(false);
    // The dead process still holds the connection's lease until it runs out (two minutes of wall
    // time, docs/reconciliation.md); the test lets those minutes pass for the lease alone.
    const later = Date.now() + 10 * 60_000;
    await second.store.write(async (tx) => {
      expect(await tx.reconcile.takeLease("vpos-est", "ins_test", Date.now(), Date.now() + 1)).toBe(false);
      expect(await tx.reconcile.takeLease("vpos-est", "ins_test", later, later + 1)).toBe(true);
      await tx.reconcile.releaseLease("vpos-est", "ins_test");
    });
    const r = await reconcileConnection(second.runtime.deps, "vpos-est", DAY);
    expect(r.findings).toMatchObject([{ class: "bank_approved", paymentCode: code, repairAction: "void", repairOutcome: "approved" }]);
    await reconcileConnection(second.runtime.deps, "vpos-est", DAY);
    expect(sim.calls().filter((c) => c.type === "Void")).toHaveLength(1);
    expect((await second.store.q.payments.get(code))?.status).toBe("failed");
    expect(await second.store.q.reconcile.repair(attemptId)).toMatchObject({ action: "void", outcome: "approved" });
  });
});
