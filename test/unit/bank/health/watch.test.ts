import { describe, expect, it } from "vitest";
import { createBanks } from "../../../../src/bank/banks";
import type { BankGateway, CaptureResult, RefundResult, Start3dResult } from "../../../../src/bank/gateway";
import type { BankCall } from "../../../../src/bank/instrument";
import { BANKS } from "../../../../src/bank/registry";
import { Sensitive } from "../../../../src/sensitive";

// Issue 32 (docs/operating.md, Health): every bank call's technical outcome feeds the breaker of the
// connection it was made for (not of the bank: connections of a bank without settings share one
// adapter); a decline never counts; a sandbox outage fails the calls technically.

const NOW = 1_800_000_000_000;
const log = { info() {}, warn() {}, error() {} };
const card = {
  pan: new Sensitive("4000001100000009"),
  expireMonth: new Sensitive("12"),
  expireYear: new Sensitive("29"),
  cv2: new Sensitive("123"),
};
const start3dInput = { attemptId: "att_1", amount: 100, installment: 1, card, callbackUrl: "http://kasa.test/cb", nowMs: NOW };
const captureInput = { attemptId: "att_1", amount: 100, installment: 1, bankProfile: "p" };
const refundInput = { idempotencyKey: "ref_1", bankReference: "cap_1", amount: 100, nowMs: NOW };

const refundAnswer = (status: RefundResult["status"]): RefundResult => ({
  status,
  procReturnCode: null,
  authCode: null,
  errMsg: null,
  bankReference: "r1",
  nextCheckAtMs: null,
});

type Script = { start3d: Start3dResult | Error; capture: CaptureResult | Error; refund: RefundResult | Error };

/** A fake simulated bank whose answers the test sets, with every call counted. */
function fakeBank(script: Script) {
  const calls: string[] = [];
  const answer = async <T>(op: string, value: T | Error): Promise<T> => {
    calls.push(op);
    if (value instanceof Error) throw value;
    return value;
  };
  const gateway: BankGateway = {
    bank: "sim",
    acsOrigin: "http://kasa.test",
    start3d: () => answer("start3d", script.start3d),
    verifyCallback: async () => ({ ok: false }),
    capture: () => answer("capture", script.capture),
    captureStatus: () => answer("captureStatus", script.capture),
    void: () => answer("void", script.refund),
    refund: () => answer("refund", script.refund),
    refundStatus: () => answer("refundStatus", script.refund),
  };
  return { gateway, calls };
}

function setup(script: Partial<Script> = {}) {
  let real = NOW;
  const banks = createBanks(BANKS, {
    fetch: () => Promise.reject(new Error("no network")),
    log,
    baseUrl: "http://kasa.test",
    secrets: new Map(),
    realNowMs: () => real,
  });
  const fake = fakeBank({
    start3d: { kind: "declined" },
    capture: { approved: false, reason: "declined" },
    refund: refundAnswer("approved"),
    ...script,
  });
  banks.sim = fake.gateway;
  const seen: BankCall[] = [];
  banks.observeCalls((c) => seen.push(c));
  const a = banks.forConnection({
    id: "vpos-a",
    bank: "sim",
    bankConfig: null,
    breaker: { failures: 2, windowSeconds: 60, cooldownSeconds: 30 },
  });
  const move = (ms: number) => {
    real += ms;
  };
  const b = () => banks.forConnection({ id: "vpos-b", bank: "sim", bankConfig: null });
  return { banks, a, b, fake, seen, move };
}

describe("product 25 Health: what a bank call tells the breaker", () => {
  it.each([
    ["a declined start3d", { start3d: { kind: "declined" } }, "start3d", "closed"],
    ["a start3d form", { start3d: { kind: "form", action: "http://acs", fields: {} } }, "start3d", "closed"],
    ["an unavailable start3d", { start3d: { kind: "unavailable", detail: "5xx" } }, "start3d", "open"],
    ["a thrown start3d", { start3d: new Error("ECONNRESET") }, "start3d", "open"],
    ["a declined capture", { capture: { approved: false, reason: "insufficient_funds" } }, "capture", "closed"],
    ["an unknown capture (approved null)", { capture: { approved: null, detail: "timeout" } }, "capture", "open"],
    ["an unknown captureStatus", { capture: { approved: null, detail: "timeout" } }, "captureStatus", "open"],
    ["a thrown refund", { refund: new Error("timeout") }, "refund", "open"],
    ["a declined refund", { refund: refundAnswer("declined") }, "refund", "closed"],
  ] as const)("%s, twice: the breaker (2 failures) is %s", async (_name, script, operation, state) => {
    const { banks, a } = setup(script as Partial<Script>);
    for (let i = 0; i < 2; i++) {
      await (a[operation] as (input: unknown) => Promise<unknown>)(
        operation === "start3d" ? start3dInput : operation === "refund" ? refundInput : captureInput,
      ).catch(() => {});
    }
    expect(banks.health.state("vpos-a")).toBe(state);
  });

  it("a pending refund, void or refund status counts as neither: it does not close a half-open breaker", async () => {
    const { banks, a, move } = setup({ capture: { approved: null, detail: "timeout" }, refund: refundAnswer("pending") });
    await a.capture(captureInput);
    await a.capture(captureInput);
    move(30_000);
    expect(banks.health.state("vpos-a")).toBe("half-open");
    await a.refund(refundInput);
    await a.void(refundInput);
    await a.refundStatus({ bankReference: "cap_1", refundReference: "r1", nowMs: NOW });
    expect(banks.health.state("vpos-a")).toBe("half-open");
    await a.start3d(start3dInput);
    expect(banks.health.state("vpos-a")).toBe("closed");
  });

  it("per connection, not per bank: two connections of one shared adapter have their own breakers", async () => {
    const { banks, a, b } = setup({ start3d: new Error("ECONNRESET") });
    for (let i = 0; i < 5; i++) await a.start3d(start3dInput).catch(() => {});
    expect(banks.health.state("vpos-a")).toBe("open");
    expect(banks.health.state("vpos-b")).toBe("closed");
    for (let i = 0; i < 4; i++)
      await b()
        .start3d(start3dInput)
        .catch(() => {});
    expect(banks.health.state("vpos-b")).toBe("closed");
    await b()
      .start3d(start3dInput)
      .catch(() => {});
    expect(banks.health.state("vpos-b")).toBe("open");
  });

  it("a method replaced on the shared adapter later is what the connection calls (tests do that)", async () => {
    const { banks, a, fake } = setup();
    fake.gateway.start3d = async () => ({ kind: "unavailable", detail: "down" });
    expect(await a.start3d(start3dInput)).toEqual({ kind: "unavailable", detail: "down" });
    expect(banks.health.state("vpos-a")).toBe("closed");
    await a.start3d(start3dInput);
    expect(banks.health.state("vpos-a")).toBe("open");
  });
});

describe("product 25 Sandbox: an outage fails one connection's calls technically for N real seconds", () => {
  it("start3d unavailable, capture unknown, refunds pending (asked again once it ends), without reaching the bank", async () => {
    const { banks, a, b, fake, move, seen } = setup();
    banks.outages.set("vpos-a", 10);
    expect(await a.start3d(start3dInput)).toMatchObject({ kind: "unavailable" });
    expect(await a.capture(captureInput)).toMatchObject({ approved: null });
    expect(await a.captureStatus(captureInput)).toMatchObject({ approved: null });
    for (const r of [await a.refund(refundInput), await a.void(refundInput)])
      expect(r).toMatchObject({ status: "pending", bankReference: null, nextCheckAtMs: NOW + 10_000 });
    expect(await a.refundStatus({ bankReference: "cap_1", refundReference: "r1", nowMs: NOW })).toMatchObject({
      status: "pending",
      bankReference: "r1",
    });
    expect(fake.calls).toEqual([]);
    expect(seen.map((c) => `${c.operation}:${c.outcome}`)).toEqual([
      "start3d:unavailable",
      "capture:unknown",
      "captureStatus:unknown",
      "refund:pending",
      "void:pending",
      "refundStatus:pending",
    ]);
    expect(banks.health.state("vpos-a")).toBe("open");
    expect(await b().start3d(start3dInput)).toEqual({ kind: "declined" });
    expect(await a.verifyCallback({ form: {}, raw: new Uint8Array() }, { attemptId: "x", amount: 1, installment: 1, nowMs: NOW })).toEqual({
      ok: false,
    });
    move(10_000);
    expect(banks.outages.until("vpos-a")).toBeNull();
    expect(await a.start3d(start3dInput)).toEqual({ kind: "declined" });
  });

  it("seconds 0 ends it at once", async () => {
    const { banks, a } = setup();
    banks.outages.set("vpos-a", 3600);
    expect(banks.outages.until("vpos-a")).toBe(NOW + 3_600_000);
    banks.outages.set("vpos-a", 0);
    expect(banks.outages.until("vpos-a")).toBeNull();
    expect(await a.start3d(start3dInput)).toEqual({ kind: "declined" });
  });
});
