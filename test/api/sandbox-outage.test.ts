import { afterEach, describe, expect, it } from "vitest";
import { OTHER_KEY } from "../support/fixtures";
import { harness, type Harness } from "../support/harness";
import { createPayment } from "./payments-flow";

// Issue 32 (docs/operating.md, Health): POST /sandbox/connections/{id}/outage {"seconds": N} makes one
// connection's bank calls fail technically for N seconds of real time (any key of the sandbox;
// 0 ends it; 404 outside sandbox mode). On a plain terminal the failed 3D start is refused as a
// decline, as today; the failures feed the connection's breaker.

let h: Harness;
afterEach(async () => h?.close());

const sandbox = () => harness({ config: { mode: "sandbox" } });
const outage = (id: string, body: unknown, key?: string) =>
  h.post(`/sandbox/connections/${id}/outage`, body, key === undefined ? undefined : { key });
const GOOD_CARD = "4000001100000009";

async function pay(): Promise<string> {
  const { paymentCode } = (await createPayment(h)).json;
  return (await h.post(`/sandbox/payments/${paymentCode}/simulate`, { card: GOOD_CARD })).json.outcome;
}

describe("product 25 Sandbox: the outage of a connection", () => {
  it("during the outage a payment's 3D start is refused as a decline; after seconds 0 it captures again", async () => {
    h = await sandbox();
    const started = Date.now();
    const r = await outage("vpos-1", { seconds: 600 });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ connectionId: "vpos-1", health: "closed" });
    const until = Date.parse(r.json.outageUntil);
    expect(until).toBeGreaterThanOrEqual(started + 600_000);
    expect(until).toBeLessThanOrEqual(Date.now() + 600_000);
    expect(await pay()).toBe("payment_declined");
    const ended = await outage("vpos-1", { seconds: 0 });
    expect(ended.json).toEqual({ connectionId: "vpos-1", outageUntil: null, health: "closed" });
    expect(await pay()).toBe("captured");
  });

  it("its failures open the connection's breaker (5 by default): the answer and the metric say so", async () => {
    h = await sandbox();
    await outage("vpos-1", { seconds: 600 });
    for (let i = 0; i < 5; i++) expect(await pay()).toBe("payment_declined");
    expect((await outage("vpos-1", { seconds: 0 })).json.health).toBe("open");
    const text = await h.runtime.metrics.render();
    expect(text).toMatch(/^kasa_bank_breaker_state\{connection="vpos-1"\} 2$/m);
    expect(text).toMatch(/^kasa_bank_calls_total\{bank="sim",operation="start3d",outcome="unavailable"\} 5$/m);
  });

  it("the sandbox clock does not end it: the outage is real time", async () => {
    h = await sandbox();
    await outage("vpos-1", { seconds: 60 });
    expect((await h.post("/sandbox/clock", { advanceSeconds: 3600 })).status).toBe(200);
    expect(await pay()).toBe("payment_declined");
  });

  it("any key of the sandbox may set it (connections belong to the provider, not to a partner)", async () => {
    h = await sandbox();
    expect((await outage("vpos-1", { seconds: 30 }, OTHER_KEY)).status).toBe(200);
    expect((await outage("vpos-1", { seconds: 30 }, "kasa_sk_test_nope")).status).toBe(401);
  });

  it("an unknown connection is 404 not_found", async () => {
    h = await sandbox();
    const r = await outage("vpos-nope", { seconds: 30 });
    expect(r.status).toBe(404);
    expect(r.json.error).toMatchObject({ code: "not_found", message: "unknown connection vpos-nope" });
  });

  it.each([[{}], [{ seconds: -1 }], [{ seconds: 1.5 }], [{ seconds: 86_401 }], [{ seconds: "60" }], [{ seconds: 60, extra: 1 }]])(
    "%j is 400 validation_error",
    async (body) => {
      h = await sandbox();
      const r = await outage("vpos-1", body);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe("validation_error");
    },
  );

  it("outside sandbox mode the path is a plain 404", async () => {
    h = await harness();
    const r = await outage("vpos-1", { seconds: 30 });
    expect(r.status).toBe(404);
    expect(r.json.error.code).toBe("not_found");
  });
});
