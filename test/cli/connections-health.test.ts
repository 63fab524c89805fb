import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { connectionsCommand } from "../../cli/commands/connections";
import { seedCommand } from "../../cli/commands/seed";
import { startMetricsListener, type MetricsListener } from "../../cli/metrics-listener";
import { TEST_CARDS_SEED } from "../api/payments-flow";
import { freePort } from "../support/free-port";
import { harness, type Harness } from "../support/harness";
import { runError, runHuman, runJson } from "./cli-run";

// Issue 32 (docs/operating.md, Health): `kasa connections list --json` shows each connection's `health`.
// Breakers live in the serving process; the command reads them from its metrics listener
// (--metrics-url or $KASA_METRICS_URL), and without one shows its own view: every breaker closed.

let h: Harness | undefined;
let listener: MetricsListener | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await listener?.close();
  await h?.close();
  h = listener = undefined;
});

type Row = { connectionId: string; health: string };

/** A database file with two connections, vpos-1 and vpos-fx. */
async function twoConnectionsDb(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "kasa-health-"));
  const db = join(dir, "kasa.db");
  writeFileSync(join(dir, "seed.json"), JSON.stringify(TEST_CARDS_SEED));
  await runJson(seedCommand, [join(dir, "seed.json"), "--db", db]);
  return db;
}

/** A running kasa whose vpos-1 breaker is open, with its metrics listener; answers the URL. */
async function servingWithOpenBreaker(): Promise<string> {
  h = await harness({ seed: TEST_CARDS_SEED });
  for (let i = 0; i < 5; i++) h.deps.banks.health.record("vpos-1", "failure");
  const port = await freePort();
  const runtime = h.runtime;
  listener = await startMetricsListener("127.0.0.1", port, () => runtime.metrics.render());
  return `http://127.0.0.1:${port}/metrics`;
}

const healthOf = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.connectionId, r.health]));

describe("product 25 Health: kasa connections list shows each connection's breaker", () => {
  it("without a metrics URL: this process's own view, every breaker closed", async () => {
    const db = await twoConnectionsDb();
    expect(healthOf(await runJson<Row[]>(connectionsCommand, ["list", "--db", db]))).toEqual({ "vpos-1": "closed", "vpos-fx": "closed" });
  });

  it("--metrics-url: the serving kasa's states, in JSON and in the table", async () => {
    const db = await twoConnectionsDb();
    const url = await servingWithOpenBreaker();
    expect(healthOf(await runJson<Row[]>(connectionsCommand, ["list", "--db", db, "--metrics-url", url]))).toEqual({
      "vpos-1": "open",
      "vpos-fx": "closed",
    });
    const text = await runHuman(connectionsCommand, ["list", "--db", db, "--metrics-url", url]);
    expect(text).toMatch(/health/);
    expect(text).toMatch(/vpos-1\b.*\bopen\b/);
  });

  it("half-open once the cooldown has passed; $KASA_METRICS_URL names the listener too", async () => {
    const db = await twoConnectionsDb();
    const url = await servingWithOpenBreaker();
    h!.deps.banks.health.configure("vpos-1", { failures: 5, windowSeconds: 60, cooldownSeconds: 0 });
    vi.stubEnv("KASA_METRICS_URL", url);
    expect(healthOf(await runJson<Row[]>(connectionsCommand, ["list", "--db", db]))["vpos-1"]).toBe("half-open");
  });

  it("a metrics URL that does not answer is one line, exit 1", async () => {
    const db = await twoConnectionsDb();
    const url = `http://127.0.0.1:${await freePort()}/metrics`;
    const error = await runError(connectionsCommand, ["list", "--db", db, "--metrics-url", url]);
    expect(error.exitCode).toBe(1);
    expect(error.message).toMatch(new RegExp(`^--metrics-url ${url}: `));
  });
});
