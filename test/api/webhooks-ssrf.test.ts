import { afterEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/deps";
import type { ResolveHost } from "../../src/domain/webhooks/ssrf";
import { DAY_MS, SECOND_MS } from "../../src/limits";
import { TEST_KEY } from "../support/fixtures";
import { harness, T0, type Harness } from "../support/harness";
import type { Receiver } from "../unit/webhooks/receiver";
import { attempts, delivery, enqueueOk, setWebhook, startServer, useReceiver, useWorker } from "../unit/webhooks/support";

let receiver: Receiver;
let h: Harness | undefined;

useReceiver((r) => (receiver = r));
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(config: Partial<Config>): Promise<Harness> {
  h = await harness({ config });
  await setWebhook(h, "ptn_test", receiver.url);
  return h;
}

const answering =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses.map((address) => ({ address }));

describe("product 11 SSRF guard in serve mode", () => {
  it("serve without --allow-private-webhooks refuses a loopback target: permanent failure naming the reason, nothing sent", async () => {
    const h = await start({ mode: "serve", allowPrivateWebhooks: false });
    const id = await enqueueOk(h);
    await h.deps.timers.runDue();
    await h.advance(DAY_MS);
    expect(receiver.deliveries).toHaveLength(0);
    expect((await delivery(h, id))?.status).toBe("failed");
    expect(await attempts(h, id)).toMatchObject([
      {
        n: 1,
        outcome: "permanent",
        httpStatus: null,
        latencyMs: null,
        error: "blocked_address: 127.0.0.1 resolves to loopback address 127.0.0.1",
      },
    ]);
  });

  it("a host name resolving to a private address is refused as well", async () => {
    const h = await start({ mode: "serve", allowPrivateWebhooks: false });
    useWorker(h, { resolve: answering("93.184.216.34", "10.0.0.7") });
    await setWebhook(h, "ptn_test", "https://hooks.partner.example/x");
    const id = await enqueueOk(h);
    await h.deps.timers.runDue();
    expect((await attempts(h, id))[0]).toMatchObject({
      outcome: "permanent",
      error: "blocked_address: hooks.partner.example resolves to private address 10.0.0.7",
    });
  });

  it("a DNS failure is retryable (30 s later), not permanent", async () => {
    const h = await start({ mode: "serve", allowPrivateWebhooks: false });
    useWorker(h, {
      resolve: async () => {
        throw new Error("ENOTFOUND");
      },
    });
    await setWebhook(h, "ptn_test", "https://hooks.partner.example/x");
    const id = await enqueueOk(h);
    await h.deps.timers.runDue();
    expect((await attempts(h, id))[0]).toMatchObject({ outcome: "retry", error: "unresolvable: hooks.partner.example did not resolve" });
    expect(await delivery(h, id)).toMatchObject({ status: "pending", nextAttemptAtMs: T0 + 30 * SECOND_MS });
  });

  it("a resolver that hangs is bounded by the deadline and retried", async () => {
    const h = await start({ mode: "serve", allowPrivateWebhooks: false });
    useWorker(h, { timeoutMs: 100, resolve: () => new Promise(() => {}) });
    await setWebhook(h, "ptn_test", "https://hooks.partner.example/x");
    const id = await enqueueOk(h);
    await h.deps.timers.runDue();
    expect((await attempts(h, id))[0]).toMatchObject({ outcome: "retry", error: "unresolvable: DNS lookup timed out after 100 ms" });
  });

  it.each<[string, Partial<Config>]>([
    ["serve with --allow-private-webhooks", { mode: "serve", allowPrivateWebhooks: true }],
    ["sandbox (private targets allowed)", { mode: "sandbox", allowPrivateWebhooks: false }],
  ])("%s delivers to a loopback receiver", async (_name, config) => {
    const h = await start(config);
    const id = await enqueueOk(h);
    await h.deps.timers.runDue();
    expect(receiver.deliveries).toHaveLength(1);
    expect((await delivery(h, id))?.status).toBe("delivered");
  });
});

describe("product 13 a sandbox clock move returns after the webhook attempts it made due", () => {
  it("POST /sandbox/clock answers once the retry has been sent", async () => {
    const server = await startServer(":memory:", {
      seed: true,
      sandboxClock: true,
      config: { mode: "sandbox", allowPrivateWebhooks: false },
    });
    try {
      await setWebhook(server, "ptn_test", receiver.url);
      receiver.script({ status: 503 }, { status: 200, delayMs: 50 });
      const id = await enqueueOk(server);
      await server.runDue();
      expect(receiver.deliveries).toHaveLength(1);
      const res = await server.runtime.app.request("http://kasa.test/sandbox/clock", {
        method: "POST",
        headers: { authorization: `Bearer ${TEST_KEY}`, "content-type": "application/json" },
        body: JSON.stringify({ advanceSeconds: 30 }),
      });
      expect(res.status).toBe(200);
      expect(receiver.deliveries).toHaveLength(2);
      expect((await delivery(server, id))?.status).toBe("delivered");
    } finally {
      await server.close();
    }
  });
});
