import { readFileSync } from "node:fs";
import { serve } from "h3";
import { consola } from "consola";
import { systemClock, wallNowMs, type Clock } from "../src/clock";
import type { Config, Mode } from "../src/deps";
import type { Log } from "../src/log-port";
import {
  DEMO_API_KEY,
  DEMO_WEBHOOK_SECRET,
  DEMO_WEBHOOK_URL,
  demoBanner,
  demoSeed,
  demoSimulatorConnections,
} from "../src/domain/partners/demo-seed";
import { applySeed, parseSeed } from "../src/domain/partners/seed";
import { createRateLimiter } from "../src/domain/rate-limits/limiter";
import { resolveLimits } from "../src/domain/rate-limits/limits-file";
import { findBank } from "../src/bank/registry";
import { DEMO_BINS } from "../src/bank/test-cards";
import { createIds, hashApiKey } from "../src/ids";
import { batchedWriter, createJsonLog, createLog } from "../src/log";
import { createService } from "../src/compose";
import { sandboxClockFor } from "../src/sandbox-clock";
import { DEMO_PANEL_EMAIL, ensureDemoPanelUser } from "../src/domain/users/demo";
import { Sensitive } from "../src/sensitive";
import { describeDb } from "../src/store/open";
import type { Store } from "../src/store/store";
import type { Registry } from "../src/metrics";
import { CliError } from "./cli-error";
import { openStoreOrExplain } from "./context";
import { resolveDbPassword } from "./db-password";
import { resolveMasterKey, sandboxMasterKey } from "./master-key";
import { startMetricsListener } from "./metrics-listener";

export type ServerOptions = {
  mode: Mode;
  db: string;
  port: number;
  host: string;
  baseUrl?: string;
  trustProxy: boolean;
  allowPrivateWebhooks: boolean;
  limits?: string;
  /** `serve` only: start even though the published sandbox demo key is an active key. */
  allowDemoKey?: boolean;
  /** docs/operating.md: pretty on a terminal, JSON lines otherwise (log shippers). */
  logFormat?: "pretty" | "json";
  /** docs/reconciliation.md: the daily run's minute after Istanbul midnight; null: off. */
  reconcileAt?: number | null;
  /** docs/operating.md: the separate /metrics listener; off when undefined. */
  metrics?: { host: string; port: number };
  /** docs/operating.md: `--master-key-file`; else $KASA_MASTER_KEY, else DB.key (the sandbox makes one). */
  masterKeyFile?: string;
  /** `--db-password-file`: the PostgreSQL password, when the URL has none. */
  dbPasswordFile?: string;
};

/**
 * A real bank's credentials are never kept in clear: `serve` refuses to start with a
 * connection whose bank takes settings (they hold its secrets) and no master key.
 */
export async function refuseClearBankSecrets(store: Store, masterKey: Buffer | null): Promise<void> {
  if (masterKey !== null) return;
  const real = (await store.q.catalog.connections()).find((c) => findBank(c.bank)?.settings !== null);
  if (real) {
    throw new CliError(
      `connection ${real.id} uses a real bank (${real.bank}): its credentials need a master key (--master-key-file FILE or $KASA_MASTER_KEY)`,
    );
  }
}

/**
 * docs/decisions.md, Hardening: `serve` refuses to start while the published sandbox demo key (printed by every
 * sandbox, in the README) is an active key of the database, which happens when a database that
 * began as a sandbox goes to production. `--allow-demo-key` overrides it.
 */
export async function refuseDemoKey(store: Store, opts: Pick<ServerOptions, "mode" | "db" | "allowDemoKey">): Promise<void> {
  if (opts.mode !== "serve" || opts.allowDemoKey) return;
  const key = await store.q.apiKeys.byHash(hashApiKey(new Sensitive(DEMO_API_KEY)));
  if (key && key.revokedAtMs === null) {
    throw new CliError(
      `the published sandbox demo key (${key.id}) is active on ${describeDb(opts.db)}: revoke it (kasa keys revoke ${key.id} --db ${describeDb(opts.db)}) or start with --allow-demo-key`,
    );
  }
}

/** Starts `kasa serve|sandbox` and stays up until SIGTERM/SIGINT, then stops cleanly (exit 0). */
export async function runServer(opts: ServerOptions): Promise<void> {
  const startedAt = wallNowMs();
  const limits = resolveLimits(opts.limits === undefined || opts.limits === "off" ? undefined : readFileSync(opts.limits, "utf8"), {
    off: opts.limits === "off",
    sandbox: opts.mode === "sandbox",
  });
  if (!limits.ok) throw new CliError(limits.message);
  let registry: Registry | undefined;
  const metrics = opts.metrics
    ? await startMetricsListener(opts.metrics.host, opts.metrics.port, async () => (await registry?.render()) ?? "")
    : undefined;
  const keyArgs = { "master-key-file": opts.masterKeyFile };
  const masterKey = opts.mode === "sandbox" ? sandboxMasterKey(keyArgs, opts.db) : resolveMasterKey(keyArgs, opts.db);
  let store: Store;
  try {
    store = await openStoreOrExplain(opts.db, masterKey, resolveDbPassword({ "db-password-file": opts.dbPasswordFile }));
  } catch (error) {
    await metrics?.close();
    throw error;
  }
  try {
    await refuseDemoKey(store, opts);
    await refuseClearBankSecrets(store, masterKey);
  } catch (error) {
    await store.close();
    await metrics?.close();
    throw error;
  }
  const fresh = (await store.q.partners.list()).length === 0;
  const clock = opts.mode === "sandbox" ? await sandboxClockFor(store) : systemClock;
  const baseUrl = (
    opts.baseUrl ?? `http://${opts.host === "0.0.0.0" || opts.host === "::" ? "localhost" : opts.host}:${opts.port}`
  ).replace(/\/+$/, "");
  if (opts.mode === "sandbox") await seedSandbox(store, clock, baseUrl, fresh);
  const config: Config = {
    mode: opts.mode,
    baseUrl,
    trustProxy: opts.trustProxy,
    allowPrivateWebhooks: opts.allowPrivateWebhooks || opts.mode === "sandbox",
    reconcileAt: opts.reconcileAt ?? null,
  };
  const log = serviceLog(opts);
  const runtime = await createService({
    store,
    clock,
    config,
    log,
    rateLimiter: createRateLimiter({ limits: limits.limits }),
  });
  registry = runtime.metrics;
  // The timer loop starts (and beats once) before the first connection is accepted: a load
  // balancer checking /readyz at once finds a ready instance.
  runtime.start();
  const server = serve(runtime.app, { port: opts.port, hostname: opts.host, silent: true, gracefulShutdown: false });
  await server.ready();
  const hasDemoKey = (await store.q.apiKeys.byHash(hashApiKey(new Sensitive(DEMO_API_KEY))))?.revokedAtMs === null;
  const demoPassword = opts.mode === "sandbox" ? await ensureDemoPanelUser(runtime.deps) : null;
  printBanner(logFormatOf(opts), log, {
    mode: opts.mode,
    baseUrl,
    db: describeDb(opts.db),
    startupMs: wallNowMs() - startedAt,
    fresh,
    demoKey: hasDemoKey,
    demoPassword,
  });
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
  // docs/operating.md: stop accepting, let in-flight requests finish (their writes commit before they
  // answer), then stop timers and close the database after the queue drained.
  const deadline = wallNowMs() + SHUTDOWN_GRACE_MS;
  await drain(server, SHUTDOWN_GRACE_MS);
  // Requests already read from a connection are still being answered: the store stays open for them.
  await runtime.requestsDone(Math.max(0, deadline - wallNowMs()));
  // Idle keep-alive connections would keep the process alive; nothing more will be answered on them.
  await server.close(true);
  await runtime.stop();
  await metrics?.close();
  await store.close();
  if (logFormatOf(opts) === "json") log.info("kasa stopped cleanly");
  else consola.info("kasa stopped cleanly");
  stdoutLines.flush();
}

/** docs/operating.md: in-flight requests get this long after SIGTERM before their connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

async function drain(server: { close(closeAll?: boolean): Promise<void> }, graceMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = await Promise.race([
    server.close(false).then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
  ]);
  clearTimeout(timer);
  if (late) await server.close(true);
}

const logFormatOf = (opts: ServerOptions): "pretty" | "json" => opts.logFormat ?? (process.stdout.isTTY ? "pretty" : "json");

/** JSON lines go out once per event-loop turn (batchedWriter); the last ones are flushed at exit. */
const stdoutLines = batchedWriter((chunk) => void process.stdout.write(chunk));
process.on("exit", () => stdoutLines.flush());

function serviceLog(opts: ServerOptions) {
  return logFormatOf(opts) === "json" ? createJsonLog((line) => stdoutLines.write(line), opts.mode) : createLog(opts.mode);
}

type Banner = {
  mode: Mode;
  baseUrl: string;
  db: string;
  startupMs: number;
  fresh: boolean;
  demoKey: boolean;
  demoPassword: Sensitive<string> | null;
};

/**
 * The start banner. With JSON logs every stdout line is JSON, the banner too: one line whose keys
 * are the banner's facts. The demo panel password is never written to a JSON log (log shippers
 * keep what they read): the pretty banner prints it, `kasa users reset-password` makes a new one.
 */
function printBanner(format: "pretty" | "json", log: Log, b: Banner): void {
  const sandbox = b.mode === "sandbox";
  const banner = sandbox ? demoBanner(b.baseUrl) : { terminals: [], notes: [] };
  if (format === "json") {
    log.info(`kasa ${b.mode} listening on ${b.baseUrl}`, {
      baseUrl: b.baseUrl,
      db: b.db,
      startupMs: b.startupMs,
      demoData: b.fresh && sandbox,
      ...(sandbox && b.demoKey ? { apiKey: DEMO_API_KEY, webhookSecret: DEMO_WEBHOOK_SECRET, webhookUrl: DEMO_WEBHOOK_URL } : {}),
      ...(sandbox && b.demoPassword ? { panelUrl: `${b.baseUrl}/panel/`, panelEmail: DEMO_PANEL_EMAIL } : {}),
      ...(sandbox ? { terminals: banner.terminals, notes: banner.notes } : {}),
    });
    return;
  }
  const lines = [
    `kasa ${b.mode} listening on ${b.baseUrl}  (database ${b.db}${b.fresh && sandbox ? ", demo data loaded" : ""}; ready in ${b.startupMs} ms)`,
    `Base URL:       ${b.baseUrl}`,
  ];
  if (sandbox) {
    if (b.demoKey)
      lines.push(`API key:        ${DEMO_API_KEY}`, `Webhook secret: ${DEMO_WEBHOOK_SECRET}  (webhooks go to ${DEMO_WEBHOOK_URL})`);
    if (b.demoPassword)
      lines.push(
        `Panel:          ${b.baseUrl}/panel/  ${DEMO_PANEL_EMAIL} / ${b.demoPassword.reveal()}  (admin; new password at every start)`,
      );
    // Each bank's demo terminals, then its test data (cards, fault amounts).
    for (const [i, terminal] of banner.terminals.entries()) lines.push(`${(i === 0 ? "Terminals:" : "").padEnd(16)}${terminal}`);
    lines.push(...banner.notes);
    lines.push("Try:", `  curl -s ${b.baseUrl}/v1/payment-acceptance -H 'Authorization: Bearer ${DEMO_API_KEY}'`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

/**
 * A new sandbox database gets the demo data; every start points the demo connections
 * of banks with settings (terminal T-3001's) at this run's own simulators, whatever port it
 * listens on now.
 */
async function seedSandbox(store: Store, clock: Clock, baseUrl: string, fresh: boolean): Promise<void> {
  const ids = createIds(clock);
  if (fresh) {
    await applySeed(
      store,
      parseSeed(
        demoSeed(
          DEMO_BINS.map((b) => ({ ...b })),
          baseUrl,
        ),
      ),
      clock.nowMs(),
      ids.keyId,
    );
    return;
  }
  const connections = [];
  for (const c of demoSimulatorConnections(baseUrl)) {
    if ((await store.q.catalog.connection(c.id))?.bank === c.bank) connections.push(c);
  }
  if (connections.length > 0) await applySeed(store, parseSeed({ connections }), clock.nowMs(), ids.keyId);
}
