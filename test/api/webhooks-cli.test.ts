import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "citty";
import { consola } from "consola";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { webhooksCommand } from "../../cli/commands/webhooks";
import { CliError } from "../../cli/cli-error";
import { ManualClock } from "../../src/clock";
import type { Receiver } from "../unit/webhooks/receiver";
import { enqueueOk, setWebhook, startServer, useReceiver } from "../unit/webhooks/support";

let receiver: Receiver;
let dir: string;
let db: string;
let delivered: string;

useReceiver((r) => (receiver = r));
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "kasa-webhooks-cli-"));
  db = join(dir, "kasa.db");
  const server = await startServer(db, { seed: true });
  await setWebhook(server, "ptn_test", receiver.url);
  delivered = await enqueueOk(server);
  await server.runDue();
  await server.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `kasa webhooks ARGS --db FILE` in-process and returns what it printed. */
async function kasa(...args: string[]): Promise<string> {
  let out = "";
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const log = vi.spyOn(consola, "log").mockImplementation((...parts: unknown[]) => {
    out += `${parts.join(" ")}\n`;
  });
  try {
    await runCommand(webhooksCommand, { rawArgs: [...args, "--db", db] });
  } finally {
    write.mockRestore();
    log.mockRestore();
  }
  return out;
}

const json = async (...args: string[]) => JSON.parse(await kasa(...args, "--json"));

describe("product 14 kasa webhooks list|show|resend|test", () => {
  it("list --json: the deliveries, newest first; filters apply", async () => {
    expect(await json("list")).toMatchObject([{ id: delivered, partnerId: "ptn_test", status: "delivered", attempts: 1 }]);
    expect(await json("list", "--status", "failed")).toEqual([]);
    expect(await json("list", "--partner", "ptn_other")).toEqual([]);
  });

  it("list (human): an aligned table", async () => {
    const text = await kasa("list");
    expect(text).toMatch(/^id\s+partner\s+type\s+status\s+attempts\s+next\s+created/);
    expect(text).toContain(delivered);
  });

  it("show --json: the attempts with status, latency and error", async () => {
    const shown = await json("show", delivered);
    expect(shown).toMatchObject({
      id: delivered,
      status: "delivered",
      history: [{ n: 1, outcome: "delivered", httpStatus: 200, error: null }],
    });
    expect(await kasa("show", delivered)).toContain("delivered");
  });

  it("resend and test only queue; the server sends them when it runs (here: at its next start)", async () => {
    expect(await json("resend", delivered)).toMatchObject({ id: delivered, status: "pending" });
    const test = await json("test", "--partner", "ptn_test");
    expect(test).toMatchObject({ type: "webhook.test", status: "pending" });
    expect(receiver.deliveries).toHaveLength(1);
    // The CLI stamped the rows with the real clock (no sandbox offset in this database).
    const server = await startServer(db, { clock: new ManualClock(Date.now() + 60_000) });
    try {
      await server.runDue();
      expect(receiver.deliveries.map((d) => d.headers["x-service-delivery-id"]).sort()).toEqual([delivered, delivered, test.id].sort());
    } finally {
      await server.close();
    }
  });

  it.each([
    [["show", "evt_nope"], "delivery evt_nope not found"],
    [["resend", "evt_nope"], "delivery evt_nope not found"],
    [["test", "--partner", "ptn_other"], "partner ptn_other has no webhook url"],
    [["list", "--status", "lost"], "status: must be one of pending, delivered, failed, dropped"],
    [["list", "--limit", "x"], "limit: must be an integer from 1 to 200"],
  ])("kasa webhooks %j fails with one clear line", async (args, message) => {
    const run = kasa(...args);
    await expect(run).rejects.toBeInstanceOf(CliError);
    await expect(run).rejects.toThrow(message);
  });
});
