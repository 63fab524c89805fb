import { afterEach, describe, expect, it } from "vitest";
import { harness, type Harness } from "../support/harness";
import { answerAcs, createPayment, handOff, pageCode, pay, paymentRow } from "./payments-flow";
import { attemptsOf, CARDS, routingSeed, type WorldOptions } from "./routing-world";

// docs/routing.md, Health and Failover (product 25): a member whose bank fails technically before
// the buyer leaves is dropped as `unavailable` within the attempt; its connection's breaker opens
// after the configured failures and routers skip it (`breaker_open`) until the cooldown has passed.

let h: Harness;
afterEach(async () => h?.close());

const FAST_BREAKER = { failures: 2, windowSeconds: 60, cooldownSeconds: 1 };

async function sandbox(o: WorldOptions = {}) {
  h = await harness({ config: { mode: "sandbox" }, seed: routingSeed({ connections: { "vpos-A": { breaker: FAST_BREAKER } }, ...o }) });
}
const outage = async (id: string, seconds: number) => {
  const r = await h.post(`/sandbox/connections/${id}/outage`, { seconds });
  expect(r.status, r.text).toBe(200);
  return r.json as { health: string };
};

async function payOnRouter(card: string = CARDS.bonus) {
  const c = await createPayment(h, { terminalId: "T-R" });
  expect(c.status, c.text).toBe(201);
  const { done } = await pay(h, c.json.paymentRef, card);
  const attempts = await attemptsOf(h, c.json.paymentCode);
  return { code: c.json.paymentCode as string, ref: c.json.paymentRef as string, done, last: attempts[attempts.length - 1] };
}

describe("product 25: failover within the attempt and the breaker", () => {
  it("an outage: the member is dropped as unavailable and the next serves; the breaker opens; later attempts skip it; half-open after the cooldown; a success closes it", async () => {
    await sandbox();
    await outage("vpos-A", 600);
    for (let i = 0; i < 2; i++) {
      const r = await payOnRouter();
      expect(r.done.leftTo).toContain("status=captured");
      expect(r.last).toMatchObject({ terminalId: "T-B", route: { skipped: [{ terminalId: "T-A", reason: "unavailable" }] } });
      expect((await paymentRow(h, r.code)).connectionId).toBe("vpos-B");
    }
    expect((await outage("vpos-A", 0)).health).toBe("open");
    const skipped = await payOnRouter();
    expect(skipped.last).toMatchObject({ terminalId: "T-B", route: { skipped: [{ terminalId: "T-A", reason: "breaker_open" }] } });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const trial = await payOnRouter();
    expect(trial.last).toMatchObject({ terminalId: "T-A", route: { skipped: [] } });
    expect((await outage("vpos-A", 0)).health).toBe("closed");
    const text = await h.runtime.metrics.render();
    expect(text).toMatch(/^kasa_route_decisions_total\{terminal="T-R",rule="fallback",member="T-B"\} 3$/m);
    expect(text).toMatch(/^kasa_route_decisions_total\{terminal="T-R",rule="fallback",member="T-A"\} 1$/m);
  });

  it("every member unavailable: the generic page, not counted, nothing moved, and the same paymentRef pays once the banks are back", async () => {
    await sandbox();
    for (const id of ["vpos-A", "vpos-B", "vpos-C"]) await outage(id, 600);
    const c = await createPayment(h, { terminalId: "T-R" });
    const before = await paymentRow(h, c.json.paymentCode);
    const refused = await handOff(h, c.json.paymentRef, CARDS.bonus);
    expect(refused.page?.status).toBe(422);
    expect(pageCode(refused.page?.body ?? "")).toBeNull();
    const after = await paymentRow(h, c.json.paymentCode);
    expect({ counted: after.attemptsCounted, started: after.threeDStarted, connectionId: after.connectionId }).toEqual({
      counted: 0,
      started: false,
      connectionId: before.connectionId,
    });
    const [failed] = await attemptsOf(h, c.json.paymentCode);
    expect(failed).toMatchObject({ status: "failed", route: { rule: "fallback" } });
    expect(failed?.route?.skipped.map((s) => s.reason)).toEqual(["unavailable", "unavailable", "unavailable"]);
    expect(await h.runtime.metrics.render()).toMatch(/member="none"\} 1$/m);
    for (const id of ["vpos-A", "vpos-B", "vpos-C"]) await outage(id, 0);
    const { done } = await pay(h, c.json.paymentRef, CARDS.bonus);
    expect(done.leftTo).toContain("status=captured");
  });

  it("once the bank has the attempt it is never re-routed: an outage at capture is today's unknown outcome on the same member", async () => {
    await sandbox();
    const c = await createPayment(h, { terminalId: "T-R" });
    const acs = await handOff(h, c.json.paymentRef, CARDS.bonus);
    await outage("vpos-A", 600);
    const done = await answerAcs(h, acs);
    expect(done.leftTo).toContain("status=initiated");
    const [attempt] = await attemptsOf(h, c.json.paymentCode);
    expect(attempt).toMatchObject({ status: "capturing", terminalId: "T-A", connectionId: "vpos-A" });
    expect((await paymentRow(h, c.json.paymentCode)).status).toBe("initiated");
  });

  it("a decline never counts towards the breaker", async () => {
    await sandbox();
    for (let i = 0; i < 3; i++) {
      const c = await createPayment(h, { terminalId: "T-R" });
      await handOff(h, c.json.paymentRef, "5400007700000003");
      expect((await attemptsOf(h, c.json.paymentCode))[0]).toMatchObject({ status: "declined", terminalId: "T-A" });
    }
    expect((await outage("vpos-A", 0)).health).toBe("closed");
  });
});
