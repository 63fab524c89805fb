import { afterEach, describe, expect, it } from "vitest";
import { tailWebhooks, type TailLine } from "../../../src/domain/webhooks/tail";
import { harness, type Harness } from "../../support/harness";
import { enqueueOk, setWebhook, useWorker } from "./support";

// Product 21: `kasa webhooks tail` follows new deliveries and attempts, one line each, from the
// moment it starts; --partner narrows it; it stops when asked.

let h: Harness;
afterEach(async () => h?.close());

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe("product 21 webhooks tail", () => {
  it("prints each new delivery and each recorded attempt once; nothing from before it started; stops on abort", async () => {
    h = await harness();
    await setWebhook(h, "ptn_test", "https://hooks.partner.example/x");
    await setWebhook(h, "ptn_other", "https://hooks.other.example/x");
    let status = 500;
    useWorker(h, { fetchImpl: async () => new Response(null, { status }) });
    const old = await enqueueOk(h, { type: "payment.captured", paymentCode: "pay_old" });
    await h.runDue();
    const lines: TailLine[] = [];
    const mine: TailLine[] = [];
    const stop = new AbortController();
    const all = tailWebhooks(h.store.q, { partnerId: null, signal: stop.signal, emit: (l) => lines.push(l), intervalMs: 5 });
    const only = tailWebhooks(h.store.q, { partnerId: "ptn_other", signal: stop.signal, emit: (l) => mine.push(l), intervalMs: 5 });

    const fresh = await enqueueOk(h, { type: "payment.failed", paymentCode: "pay_new" });
    const other = await enqueueOk(h, { type: "payment.captured", paymentCode: "pay_other" }, "ptn_other");
    await until(() => lines.length >= 2);
    await h.runDue(); // both attempts fail with 500: retry
    await until(() => lines.length >= 4);
    status = 204;
    await h.advance(30_000); // the retries succeed
    await until(() => lines.length >= 7);
    await new Promise((r) => setTimeout(r, 30));
    stop.abort();
    await Promise.all([all, only]);

    const summary = (l: TailLine) =>
      l.kind === "delivery" ? `delivery ${l.id}` : `attempt ${l.deliveryId}#${l.n} ${l.outcome} ${l.httpStatus}`;
    expect(lines.map(summary).sort()).toEqual(
      [
        `delivery ${fresh}`,
        `delivery ${other}`,
        `attempt ${fresh}#1 retry 500`,
        `attempt ${other}#1 retry 500`,
        `attempt ${fresh}#2 delivered 204`,
        `attempt ${other}#2 delivered 204`,
        // The delivery queued before the tail started is not printed, its first attempt neither; its retry is new.
        `attempt ${old}#2 delivered 204`,
      ].sort(),
    );
    expect(mine.map(summary)).toEqual([`delivery ${other}`, `attempt ${other}#1 retry 500`, `attempt ${other}#2 delivered 204`]);
  });
});

describe("product 21 webhooks tail: a burst larger than one read", () => {
  it("2,500 deliveries queued in one millisecond are each printed exactly once", async () => {
    h = await harness();
    await setWebhook(h, "ptn_test", "https://hooks.partner.example/x");
    const lines: TailLine[] = [];
    const stop = new AbortController();
    const run = tailWebhooks(h.store.q, { partnerId: null, signal: stop.signal, emit: (l) => lines.push(l), intervalMs: 5 });
    const ids = await Promise.all(
      Array.from({ length: 2_500 }, (_, i) => enqueueOk(h, { type: "payment.captured", paymentCode: `pay_${i}` })),
    );
    await until(() => lines.length >= ids.length);
    await new Promise((r) => setTimeout(r, 30));
    stop.abort();
    await run;
    expect(lines.map((l) => (l.kind === "delivery" ? l.id : "attempt")).sort()).toEqual([...ids].sort());
  });
});
