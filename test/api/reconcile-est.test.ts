import { afterEach, describe, expect, it } from "vitest";
import { reconcileConnection } from "../../src/domain/reconciliation/run";
import { toRunJson } from "../../src/domain/reconciliation/view";
import { HOUR_MS } from "../../src/limits";
import { callbackOf, estHarness, estPayment, payAtBank, type EstHarness } from "./est-flow";

// Reconciliation (docs/reconciliation.md) against the built-in EST simulator: each class from a scripted disagreement between
// kasa and the bank (a misread Auth answer, the bank's own void, a rewritten status answer, the
// bank not answering), the bank_approved repair sent once across a crash, and nothing of a
// captured payment changed by a run.

const APPROVE = "4000001100000009";
const DAY = "2026-11-20"; // the harness clock's Istanbul day
const NEXT = "2026-11-21";
const CONNECTION = "vpos-est";

let h: EstHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Script = {
  /** Types of the requests that reached the bank, in order. */
  reached: string[];
  /** ORDERSTATUS and ORDERHISTORY get no answer. */
  down: boolean;
  /** The next Auth is approved at the bank, its answer replaced by a decline (a misread answer). */
  misreadAuth: boolean;
  /** A Void reaches the bank, its answer is lost. */
  loseVoidAnswer: boolean;
  /** Rewrites ORDERSTATUS answers. */
  rewrite: ((xml: string) => string) | null;
  /** Each ORDERSTATUS waits this long (two runs at once would interleave). */
  delayMs: number;
  inFlight: number;
  maxInFlight: number;
};

const typeOf = (body: string): string =>
  /<Type>(\w+)<\/Type>/.exec(body)?.[1] ?? (/ORDERSTATUS/.test(body) ? "ORDERSTATUS" : "ORDERHISTORY");
const latin1 = (r: Response) => r.arrayBuffer().then((b) => new TextDecoder("latin1").decode(b));
const DECLINED = `<?xml version="1.0" encoding="ISO-8859-9"?><CC5Response><Response>Declined</Response><ProcReturnCode>05</ProcReturnCode><ErrMsg>Red</ErrMsg></CC5Response>`;

async function scripted() {
  const s: Script = {
    reached: [],
    down: false,
    misreadAuth: false,
    loseVoidAnswer: false,
    rewrite: null,
    delayMs: 0,
    inFlight: 0,
    maxInFlight: 0,
  };
  const k = await estHarness({
    transport: async (_url, init, send) => {
      const type = typeOf(new TextDecoder("latin1").decode(init.body as Uint8Array));
      if (s.down && (type === "ORDERSTATUS" || type === "ORDERHISTORY")) return new Response("busy", { status: 503 });
      s.reached.push(type);
      if (type === "ORDERSTATUS") {
        s.inFlight++;
        s.maxInFlight = Math.max(s.maxInFlight, s.inFlight);
        await new Promise((r) => setTimeout(r, s.delayMs));
        s.inFlight--;
      }
      const response = await send();
      if (type === "Auth" && s.misreadAuth) {
        s.misreadAuth = false;
        return new Response(DECLINED, { headers: { "content-type": "text/xml" } });
      }
      if (type === "Void" && s.loseVoidAnswer) return new Response("gateway timeout", { status: 504 });
      if (type === "ORDERSTATUS" && s.rewrite)
        return new Response(s.rewrite(await latin1(response)), { headers: { "content-type": "text/xml" } });
      return response;
    },
  });
  h = k;
  return { k, s };
}

async function captured(k: EstHarness, amount = 10_000): Promise<string> {
  const p = await estPayment(k, "T-E3D", amount);
  const done = await payAtBank(k, p.paymentRef, APPROVE);
  if (!done.leftTo?.includes("status=captured")) throw new Error(`not captured: ${done.leftTo}`);
  return p.paymentCode;
}

/** Approved at the bank, failed in kasa: the Auth's answer was misread as a decline. */
async function misread(k: EstHarness, s: Script): Promise<string> {
  s.misreadAuth = true;
  const p = await estPayment(k, "T-E3D", 10_000);
  await payAtBank(k, p.paymentRef, APPROVE);
  expect((await k.store.q.payments.get(p.paymentCode))?.status).toBe("failed");
  return p.paymentCode;
}

const run = async (k: EstHarness, day = DAY) => {
  const r = await reconcileConnection(k.deps, CONNECTION, day);
  return toRunJson(r.run, r.findings);
};
const count = (s: Script, type: string) => s.reached.filter((t) => t === type).length;
const attemptOf = async (k: EstHarness, code: string) => (await k.store.q.attempts.byPayment(code))[0]!.id;

describe("product 26: reconciliation against the EST simulator", () => {
  it("matched: a captured payment, and its credit the next day; the run is stored and listed", async () => {
    const { k } = await scripted();
    const code = await captured(k);
    await k.advance(24 * HOUR_MS);
    const refund = await k.post(`/v1/payments/${code}/refunds/credit`, { partnerRefundCode: "R-1", amount: 4_000 });
    expect(refund.json.status).toBe("approved");
    const first = await run(k, DAY);
    expect(first).toMatchObject({ connectionId: CONNECTION, date: DAY, findings: [] });
    expect(first.counts).toEqual({
      matched: 1,
      amount_mismatch: 0,
      bank_approved: 0,
      bank_missing: 0,
      unknown: 0,
      not_in_kasa: 0,
      in_progress: 0,
    });
    const second = await run(k, NEXT);
    expect(second.counts.matched).toBe(1);
    expect((await k.store.q.reconcile.runs(CONNECTION, 10)).map((r) => r.day)).toEqual([NEXT, DAY]);
  });

  it("amount_mismatch: the bank's ORDERSTATUS shows another captured amount; the payment is not touched", async () => {
    const { k, s } = await scripted();
    const code = await captured(k);
    const before = await k.store.q.payments.get(code);
    s.rewrite = (xml) => xml.replace(/<CAPTURE_AMT>\d+<\/CAPTURE_AMT>/, "<CAPTURE_AMT>9000</CAPTURE_AMT>");
    const r = await run(k);
    expect(r.counts.amount_mismatch).toBe(1);
    expect(r.findings).toEqual([
      {
        class: "amount_mismatch",
        paymentCode: code,
        attemptId: await attemptOf(k, code),
        refundId: null,
        kasa: { status: "captured", amount: 10_000 },
        bank: { status: "approved", amount: 9_000, reference: expect.stringMatching(/^\d{12}$/) },
        repair: null,
      },
    ]);
    expect(await k.store.q.payments.get(code)).toEqual(before);
  });

  it("bank_missing: the bank's operations voided a captured order; kasa reports it and changes nothing", async () => {
    const { k, s } = await scripted();
    const code = await captured(k);
    const before = await k.store.q.payments.get(code);
    const connection = (await k.store.q.catalog.connection(CONNECTION))!;
    const oid = await attemptOf(k, code);
    await k.deps.banks
      .forConnection(connection)
      .void({ idempotencyKey: "ops", bankReference: oid, amount: 10_000, nowMs: k.clock.nowMs() });
    const r = await run(k);
    expect(r.findings).toMatchObject([
      { class: "bank_missing", kasa: { status: "captured", amount: 10_000 }, bank: { status: "voided" }, repair: null },
    ]);
    expect(await k.store.q.payments.get(code)).toEqual(before);
    expect(count(s, "Credit") + count(s, "Void")).toBe(1);
  });

  it("bank_approved the same day: voided once; the payment stays failed; the next run finds it matched", async () => {
    const { k, s } = await scripted();
    const code = await misread(k, s);
    const r = await run(k);
    expect(r.findings).toMatchObject([
      {
        class: "bank_approved",
        paymentCode: code,
        kasa: { status: "failed", amount: 10_000 },
        bank: { status: "approved", amount: 10_000 },
        repair: { action: "void", outcome: "approved" },
      },
    ]);
    expect(count(s, "Void")).toBe(1);
    expect((await k.store.q.payments.get(code))?.status).toBe("failed");
    const again = await run(k);
    expect(again.counts).toMatchObject({ matched: 1, bank_approved: 0 });
    expect(count(s, "Void")).toBe(1);
    expect((await k.store.q.reconcile.run(r.id))?.supersededBy).toBe(again.id);
  });

  it("bank_approved found the next morning: the bank's day ended, so the whole amount is credited", async () => {
    const { k, s } = await scripted();
    const code = await misread(k, s);
    await k.advance(20 * HOUR_MS);
    const r = await run(k, DAY);
    expect(r.findings).toMatchObject([{ class: "bank_approved", paymentCode: code, repair: { action: "credit", outcome: "approved" } }]);
    expect([count(s, "Void"), count(s, "Credit")]).toEqual([0, 1]);
    // Asked again, the repair recorded as approved is never sent again.
    await run(k, DAY);
    expect(count(s, "Credit")).toBe(1);
  });

  it("a crash between recording the void and calling the bank: the next run sends it, exactly once in all", async () => {
    const { k, s } = await scripted();
    const code = await misread(k, s);
    const attemptId = await attemptOf(k, code);
    // What the crashed run left: the repair recorded, no answer, nothing sent.
    await k.store.write((tx) =>
      tx.reconcile.recordRepair({
        attemptId,
        connectionId: CONNECTION,
        action: "void",
        amount: 10_000,
        captureReference: attemptId,
        createdAtMs: k.clock.nowMs(),
      }),
    );
    const r = await run(k);
    expect(r.findings).toMatchObject([{ class: "bank_approved", repair: { action: "void", outcome: "approved" } }]);
    await run(k);
    expect(count(s, "Void")).toBe(1);
    expect(await k.store.q.reconcile.repair(attemptId)).toMatchObject({ action: "void", outcome: "approved" });
  });

  it("a void whose answer was lost after it reached the bank: the next run finds it voided and sends nothing", async () => {
    const { k, s } = await scripted();
    await misread(k, s);
    s.loseVoidAnswer = true;
    const r = await run(k);
    expect(r.findings).toMatchObject([{ class: "bank_approved", repair: { action: "void", outcome: "unknown" } }]);
    s.loseVoidAnswer = false;
    const again = await run(k);
    expect(again.counts).toMatchObject({ matched: 1, bank_approved: 0 });
    expect(count(s, "Void")).toBe(1);
  });

  it("unknown: the bank does not answer; the run completes and is stored; a later run asks again and supersedes it", async () => {
    const { k, s } = await scripted();
    const code = await captured(k);
    s.down = true;
    const r = await run(k);
    expect(r.findings).toMatchObject([
      { class: "unknown", paymentCode: code, bank: { status: "unknown", amount: null, reference: null }, repair: null },
    ]);
    expect(await k.store.q.reconcile.run(r.id)).toMatchObject({ supersededBy: null });
    s.down = false;
    const again = await run(k);
    expect(again.counts).toMatchObject({ matched: 1, unknown: 0 });
    expect((await k.store.q.reconcile.runs(CONNECTION, 10)).map((x) => x.id)).toEqual([again.id]);
  });

  it("in_progress: an attempt at the bank's page within its window is not asked about", async () => {
    const { k, s } = await scripted();
    const p = await estPayment(k, "T-E3D", 10_000);
    await callbackOf(k, p.paymentRef, APPROVE); // at the gate, the callback not (yet) posted
    expect((await k.store.q.attempts.byPayment(p.paymentCode))[0]?.status).toBe("acs");
    s.reached.length = 0;
    const r = await run(k);
    expect(r.counts).toMatchObject({ in_progress: 1, matched: 0 });
    expect(r.findings).toEqual([]);
    expect(s.reached).toEqual([]);
  });

  it("one JSON log line per finding, and kasa_reconciliation_findings", async () => {
    const { k, s } = await scripted();
    await captured(k);
    s.down = true;
    const r = await run(k);
    const lines = k.log.lines.filter((l) => l.includes("reconciliation finding"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`"runId":"${r.id}"`);
    expect(lines[0]).toContain('"class":"unknown"');
    // The gauge holds the latest run's findings by class.
    const metrics = await k.runtime.metrics.render();
    expect(metrics).toContain('kasa_reconciliation_findings{connection="vpos-est",class="unknown"} 1');
    expect(metrics).toContain('kasa_reconciliation_findings{connection="vpos-est",class="bank_missing"} 0');
  });

  it("two runs of one connection at once: the second waits; both complete, the later supersedes", async () => {
    const { k, s } = await scripted();
    await captured(k);
    await captured(k);
    s.delayMs = 20;
    s.reached.length = 0;
    const [a, b] = await Promise.all([run(k), run(k)]);
    expect(s.maxInFlight).toBe(1);
    expect(count(s, "ORDERSTATUS")).toBe(4);
    expect([a.counts.matched, b.counts.matched]).toEqual([2, 2]);
    expect((await k.store.q.reconcile.runs(CONNECTION, 10)).map((x) => x.id)).toEqual([b.id]);
  });
});
