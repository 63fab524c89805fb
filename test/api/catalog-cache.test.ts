import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { keysCommand } from "../../cli/commands/keys";
import { terminalsCommand } from "../../cli/commands/terminals";
import { ManualClock } from "../../src/clock";
import { createRateLimiter } from "../../src/domain/rate-limits/limiter";
import { hashApiKey } from "../../src/ids";
import { memoryLog } from "../../src/log";
import { createService } from "../../src/compose";
import { Sensitive } from "../../src/sensitive";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import type { Store } from "../../src/store/store";
import { runJson, seededDb, T0 } from "../cli/cli-run";
import { TEST_KEY } from "../support/fixtures";
import { apiRequester } from "../support/harness";

// Issue 17: keys, partners, terminals and connections are read from memory while unchanged, and
// a change made by another process (the operator CLI on the same file) or by a unit that rolled
// back is seen by the very next request.

let store: Store;
let stop: () => Promise<void> = async () => {};
afterEach(async () => stop());

async function serverOn(file: string) {
  store = await openStore(file);
  const runtime = await createService({
    store,
    clock: new ManualClock(T0),
    log: memoryLog(),
    rateLimiter: createRateLimiter({ limits: "off" }),
    config: { mode: "serve", baseUrl: "http://kasa.test", trustProxy: true, allowPrivateWebhooks: true },
  });
  stop = async () => {
    await runtime.stop();
    await store.close();
  };
  return apiRequester(runtime.app, memoryLog());
}

const createBody = (n: number) => ({ amount: 10_000, partnerTxCode: `cache-${n}`, terminalId: "T-1", returnUrl: "https://shop.example/r" });

describe("issue 17 cached reads see every change on the next request", () => {
  it("a key revoked by the CLI (another connection) gets 401 on the very next request", async () => {
    const file = await seededDb();
    const request = await serverOn(file);
    expect((await request("GET", "/v1/payment-acceptance")).status).toBe(200);
    expect((await request("GET", "/v1/payment-acceptance")).status).toBe(200);
    const keyId = (await store.q.apiKeys.byHash(hashApiKey(new Sensitive(TEST_KEY))))!.id;
    await runJson(keysCommand, ["revoke", keyId, "--db", file]);
    expect((await request("GET", "/v1/payment-acceptance")).status).toBe(401);
  });

  it("a key revoked by another process (kasa keys revoke) gets 401 on the very next request", async () => {
    const file = await seededDb();
    const request = await serverOn(file);
    expect((await request("GET", "/v1/payment-acceptance")).status).toBe(200);
    const keyId = (await store.q.apiKeys.byHash(hashApiKey(new Sensitive(TEST_KEY))))!.id;
    await promisify(execFile)("node_modules/.bin/bun", ["cli/main.ts", "keys", "revoke", keyId, "--db", file]);
    expect((await request("GET", "/v1/payment-acceptance")).status).toBe(401);
  });

  it("a terminal deactivated by the CLI is refused on the very next create (403)", async () => {
    const file = await seededDb();
    const request = await serverOn(file);
    expect((await request("POST", "/v1/payments", { body: createBody(1) })).status).toBe(201);
    await runJson(terminalsCommand, ["set", "T-1", "--active", "false", "--db", file]);
    const refused = await request("POST", "/v1/payments", { body: createBody(2) });
    expect([refused.status, refused.json.error.code]).toEqual([403, "terminal_not_allowed"]);
  });

  it("a unit that changed a terminal and rolled back leaves no trace in the cache, even when the version number returns", async () => {
    const file = await seededDb();
    const request = await serverOn(file);
    const terminal = (await store.q.catalog.terminal("T-1"))!;
    await expect(
      store.write(async (tx) => {
        await tx.catalog.upsertTerminal({ ...terminal, active: false });
        expect((await tx.catalog.terminal("T-1"))!.active).toBe(false); // read (and cached) inside the unit
        throw new Error("rolled back on purpose");
      }),
    ).rejects.toThrow("rolled back on purpose");
    // A committed change brings the counter to the number the rolled-back unit had used.
    await store.write(async (tx) => await tx.catalog.upsertTerminal({ ...terminal, installments: [1, 3] }));
    expect(await store.q.catalog.terminal("T-1")).toMatchObject({ active: true, installments: [1, 3] });
    expect((await request("POST", "/v1/payments", { body: { ...createBody(3), installment: 3 } })).status).toBe(201);
  });
});
