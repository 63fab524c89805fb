import { defineCommand } from "citty";
import { parseReconcileAt } from "../../src/domain/reconciliation/timer";
import { limitsHelpText } from "../../src/domain/rate-limits/limits-file";
import { CliError } from "../cli-error";
import { resolveDbPath } from "../context";
import { dbPasswordArg } from "../db-password";
import { masterKeyArg } from "../master-key";
import { runServer } from "../server";

const serverArgs = {
  db: { type: "string", description: "database file or postgres:// URL (default $KASA_DB, then ./kasa.db)", valueHint: "FILE|URL" },
  port: { type: "string", description: "port to listen on", default: "8080" },
  host: { type: "string", description: "address to bind", default: "127.0.0.1" },
  "base-url": { type: "string", description: "public base URL for handoff and link URLs (default http://HOST:PORT)" },
  "trust-proxy": { type: "boolean", description: "take the client address from X-Forwarded-For (right-most entry)" },
  limits: { type: "string", description: "rate budgets file (JSON of budget -> limit), or 'off' (sandbox only)", valueHint: "FILE|off" },
  "metrics-port": { type: "string", description: "serve Prometheus /metrics on this port (default off)" },
  "metrics-host": { type: "string", description: "address for the metrics listener", default: "127.0.0.1" },
  "log-format": { type: "string", description: "pretty or json (default: pretty on a terminal, json otherwise)", valueHint: "pretty|json" },
  "reconcile-at": {
    type: "string",
    description: "the daily reconciliation's Istanbul time, or off (docs/reconciliation.md)",
    default: "06:00",
    valueHint: "HH:MM|off",
  },
  ...masterKeyArg,
  ...dbPasswordArg,
} as const;

function toMetrics(args: { "metrics-port"?: string; "metrics-host"?: string }): { host: string; port: number } | undefined {
  if (args["metrics-port"] === undefined) return undefined;
  return { host: args["metrics-host"] ?? "127.0.0.1", port: toPort(args["metrics-port"], "--metrics-port") };
}

function toLogFormat(raw: string | undefined): "pretty" | "json" | undefined {
  if (raw === undefined || raw === "pretty" || raw === "json") return raw;
  throw new CliError(`--log-format: must be pretty or json, got "${raw}"`, 2);
}

function toReconcileAt(raw: string): number | null {
  try {
    return parseReconcileAt(raw);
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), 2);
  }
}

function toPort(raw: string, flag = "--port"): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`${flag}: must be 0-65535, got "${raw}"`, 2);
  return port;
}

export const serveCommand = defineCommand({
  meta: {
    name: "serve",
    description: `Run the service.\n\nExample: kasa serve --db /var/lib/kasa/kasa.db --port 8080 --base-url https://pay.example\n\nRate budgets for --limits FILE (name, default, window):\n${limitsHelpText()}`,
  },
  args: {
    ...serverArgs,
    "allow-private-webhooks": { type: "boolean", description: "allow webhook URLs on loopback/private addresses" },
    "allow-demo-key": { type: "boolean", description: "start even though the published sandbox demo API key is active" },
  },
  run: ({ args }) =>
    runServer({
      mode: "serve",
      db: resolveDbPath(args.db),
      port: toPort(args.port),
      host: args.host,
      baseUrl: args["base-url"],
      trustProxy: Boolean(args["trust-proxy"]),
      allowPrivateWebhooks: Boolean(args["allow-private-webhooks"]),
      limits: args.limits,
      allowDemoKey: Boolean(args["allow-demo-key"]),
      logFormat: toLogFormat(args["log-format"]),
      reconcileAt: toReconcileAt(args["reconcile-at"]),
      metrics: toMetrics(args),
      masterKeyFile: args["master-key-file"],
      dbPasswordFile: args["db-password-file"],
    }),
});

export const sandboxCommand = defineCommand({
  meta: {
    name: "sandbox",
    description:
      "Run the service with demo data, the simulated bank and a controllable clock.\n\nExample: kasa sandbox --port 8080 --db kasa-sandbox.db",
  },
  args: {
    ...serverArgs,
    db: { ...serverArgs.db, description: "database file or postgres:// URL", default: "kasa-sandbox.db" },
    // On, as in serve, on the sandbox clock: moving the clock a day ahead runs it once.
    "reconcile-at": {
      ...serverArgs["reconcile-at"],
      description: "the daily reconciliation's time on the sandbox clock, or off",
    },
  },
  run: ({ args }) =>
    runServer({
      mode: "sandbox",
      db: args.db,
      port: toPort(args.port),
      host: args.host,
      baseUrl: args["base-url"],
      trustProxy: Boolean(args["trust-proxy"]),
      allowPrivateWebhooks: true,
      limits: args.limits,
      logFormat: toLogFormat(args["log-format"]),
      reconcileAt: toReconcileAt(args["reconcile-at"]),
      metrics: toMetrics(args),
      masterKeyFile: args["master-key-file"],
      dbPasswordFile: args["db-password-file"],
    }),
});
