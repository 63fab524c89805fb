import { describe, expect, it } from "vitest";
import type { ManualClock } from "../../src/clock";
import { DAY_MS, SECOND_MS, WEBHOOK_TIMEOUT_MS } from "../../src/limits";
import { T0 } from "../support/harness";
import { useRestartRig } from "../support/restart-rig";
import type { Receiver } from "../unit/webhooks/receiver";
import { attempts, delivery, enqueueOk, setWebhook, startServer, useReceiver, type Server } from "../unit/webhooks/support";

let receiver: Receiver;
let path: string;
let clock: ManualClock;

useReceiver((r) => (receiver = r));
const rig = useRestartRig<Server>("kasa-webhooks-", (files) => ({ path, clock } = files));

const start = async (seed = false): Promise<Server> => rig.track(await startServer(path, { clock, seed }));
const stop = rig.stop;

const receivedIds = () => receiver.deliveries.map((d) => d.headers["x-service-delivery-id"]);

describe("product 11 deliveries survive a restart and are delivered exactly once", () => {
  it("deliveries queued before the stop (new and waiting for a retry) are each delivered once after the start", async () => {
    const first = await start(true);
    await setWebhook(first, "ptn_test", receiver.url);
    receiver.script({ status: 503 });
    const retrying = await enqueueOk(first, { type: "payment.failed", paymentCode: "pay_r" });
    await first.runDue();
    expect(await delivery(first, retrying)).toMatchObject({ status: "pending", nextAttemptAtMs: T0 + 30 * SECOND_MS });
    const fresh = [
      await enqueueOk(first, { type: "payment.captured", paymentCode: "pay_1" }),
      await enqueueOk(first, { type: "payment_link.expired", paymentLinkId: "pl_1" }),
      await enqueueOk(first, { type: "webhook.test" }),
    ];
    await stop(first); // the queued timers die with the process; the rows do not

    const second = await start();
    await second.runDue();
    expect(receivedIds().slice(1).sort()).toEqual([...fresh].sort());
    await second.advance(30 * SECOND_MS);
    await second.advance(2 * DAY_MS);
    expect(receivedIds().sort()).toEqual([retrying, retrying, ...fresh].sort());
    for (const id of [retrying, ...fresh]) expect((await delivery(second, id))?.status).toBe("delivered");
    expect((await attempts(second, retrying)).map((a) => a.outcome)).toEqual(["retry", "delivered"]);
  });

  it("a delivered row is never sent again by a later start", async () => {
    const first = await start(true);
    await setWebhook(first, "ptn_test", receiver.url);
    const id = await enqueueOk(first);
    await first.runDue();
    await stop(first);
    const second = await start();
    await second.runDue();
    await second.advance(2 * DAY_MS);
    expect(receivedIds()).toEqual([id]);
  });

  it("an attempt claimed but never recorded (the process died mid-send) is sent again after the start", async () => {
    const first = await start(true);
    await setWebhook(first, "ptn_test", receiver.url);
    const id = await enqueueOk(first);
    // What the worker's claim unit leaves behind when the process dies before the record unit.
    await first.store.write(async (tx) => await tx.webhooks.claim(id, T0, T0));
    await stop(first);

    const second = await start();
    await second.runDue();
    // Another process might still be sending it: it is taken over only once its deadline passed.
    expect(receivedIds()).toEqual([]);
    await second.advance(WEBHOOK_TIMEOUT_MS);
    expect(receivedIds()).toEqual([id]);
    expect(await delivery(second, id)).toMatchObject({ status: "delivered", attempts: 1 });
    // The interrupted attempt was never recorded; the resumed one is attempt 1 of the schedule.
    expect(await attempts(second, id)).toMatchObject([{ n: 1, startedAtMs: T0 + WEBHOOK_TIMEOUT_MS, outcome: "delivered" }]);
    await second.advance(2 * DAY_MS);
    expect(receivedIds()).toEqual([id]);
  });

  it("a resumed attempt that fails keeps its place in the schedule (attempt 3 is followed 10 min later)", async () => {
    const first = await start(true);
    await setWebhook(first, "ptn_test", receiver.url);
    receiver.script({ status: 503 }, { status: 503 });
    const id = await enqueueOk(first);
    await first.runDue(); // attempt 1 fails
    await first.advance(30 * SECOND_MS); // attempt 2 fails
    expect(receiver.deliveries).toHaveLength(2);
    // Attempt 3 comes due, is claimed, and the process dies before it is recorded.
    const waiting = (await delivery(first, id))!;
    clock.set(waiting.nextAttemptAtMs!);
    await first.store.write(async (tx) => await tx.webhooks.claim(id, waiting.nextAttemptAtMs!, clock.nowMs()));
    await stop(first);

    const second = await start();
    receiver.script({ status: 503 });
    await second.advance(WEBHOOK_TIMEOUT_MS);
    expect(receiver.deliveries).toHaveLength(3);
    expect(await delivery(second, id)).toMatchObject({
      status: "pending",
      attempts: 3,
      nextAttemptAtMs: clock.nowMs() + 10 * 60 * SECOND_MS,
    });
  });

  it("a sweep hands rows queued by another process (the CLI) to a running server", async () => {
    const server = await start(true);
    await setWebhook(server, "ptn_test", receiver.url);
    const other = await startServer(path, { clock }); // e.g. `kasa webhooks test`, same database file
    const id = await other.store.write(async (tx) => {
      const partner = (await tx.partners.get("ptn_test"))!;
      await tx.webhooks.insert({
        id: "evt_from_cli",
        partnerId: partner.id,
        type: "webhook.test",
        body: `{"id":"evt_from_cli","type":"webhook.test","occurredAt":"${new Date(T0).toISOString()}"}`,
        occurredAtMs: T0,
      });
      return "evt_from_cli";
    });
    await other.store.close();
    await server.runDue();
    expect(receivedIds()).toEqual([]); // the server has no timer for it yet
    await server.advance(5 * SECOND_MS);
    expect(receivedIds()).toEqual([id]);
    await server.advance(DAY_MS);
    expect(receivedIds()).toEqual([id]);
  });
});
