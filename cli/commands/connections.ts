import { defineCommand } from "citty";
import type { BankModule, ConnectionCheck } from "../../src/bank/module";
import { BANKS, bankOf } from "../../src/bank/registry";
import { BREAKER_STATE_VALUE, type BreakerState } from "../../src/service-metrics";
import type { Store } from "../../src/store/store";
import type { ConnectionRow } from "../../src/store/rows";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, table, withStore } from "../context";
import { optional } from "../flags";

// `kasa connections list|check` (docs/banks.md). A connection's bank settings are shown as its bank's
// descriptor redacts them: secrets as [redacted], in every output. The functions take the list of
// banks (the registry's unless a test adds one).

/** The breaker state of a connection, by id. */
export type HealthOf = (connectionId: string) => BreakerState;

/**
 * docs/operating.md, Health: breakers live in the serving process's memory, and this command runs
 * in its own process, which has made no bank calls: every breaker of its own is closed. So the
 * states come from the server's metrics listener when one is named; without one, "closed".
 */
const OWN_VIEW: HealthOf = () => "closed";

/** A connection as JSON: the settings of its bank under the bank's id, null under every other's. */
function toConnectionJson(c: ConnectionRow, banks: readonly BankModule[], health: HealthOf) {
  const bank = bankOf(c.bank, banks);
  const settings = Object.fromEntries(
    banks.filter((b) => b.settings !== null).map((b) => [b.id, b.id === bank.id ? bank.redact(c) : null]),
  );
  return { connectionId: c.id, psp: c.pspId, bank: c.bank, active: c.active, health: health(c.id), ...settings };
}

/** `kasa connections list`: the JSON rows, and the table printed without --json. */
export async function listConnections(store: Store, banks: readonly BankModule[] = BANKS, health: HealthOf = OWN_VIEW) {
  const connections = await store.q.catalog.connections();
  const rows = connections.map((c) => toConnectionJson(c, banks, health));
  const text = () =>
    table(
      connections.map((c) => ({
        connection: c.id,
        psp: c.pspId,
        bank: c.bank,
        active: c.active ? "yes" : "no",
        health: health(c.id),
        ...bankOf(c.bank, banks).columns(c),
      })),
    );
  return { rows, text };
}

const STATE_OF_VALUE = new Map(Object.entries(BREAKER_STATE_VALUE).map(([state, value]) => [value, state as BreakerState]));
const BREAKER_LINE = /^kasa_bank_breaker_state\{connection="((?:[^"\\]|\\.)*)"\} (\S+)$/gm;
const unescapeLabel = (s: string) => s.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));

/** Reads every connection's breaker from a running kasa's `/metrics` (kasa_bank_breaker_state). */
export async function healthFromMetrics(url: string, fetcher: typeof fetch = fetch): Promise<HealthOf> {
  let text: string;
  try {
    const res = await fetcher(url, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    text = await res.text();
  } catch (error) {
    throw new CliError(`--metrics-url ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const states = new Map<string, BreakerState>();
  for (const [, id, value] of text.matchAll(BREAKER_LINE)) {
    const state = STATE_OF_VALUE.get(Number(value));
    if (state) states.set(unescapeLabel(id!), state);
  }
  if (!/^# TYPE kasa_bank_breaker_state gauge$/m.test(text)) throw new CliError(`--metrics-url ${url}: no kasa_bank_breaker_state there`);
  return (id) => states.get(id) ?? "closed";
}

/** `kasa connections check ID`: the bank's own probe, as JSON and as text; `ok` false exits 1. */
export async function checkConnection(store: Store, id: string, banks: readonly BankModule[] = BANKS) {
  const c = await store.q.catalog.connection(id);
  if (!c) throw new CliError(`unknown connection ${id}`);
  const result: ConnectionCheck = await bankOf(c.bank, banks).check(c, {
    fetch: (url, init) => fetch(url, init),
    nowMs: () => performance.now(),
  });
  const latencyMs = Math.round(result.latencyMs);
  const json = {
    connectionId: c.id,
    bank: c.bank,
    ...result.facts,
    answered: result.answered,
    credentialsAccepted: result.credentialsAccepted,
    latencyMs,
    message: result.message,
  };
  const text = () =>
    result.note !== undefined
      ? `${c.id}: ${result.note}`
      : [
          `${c.id} (${[c.bank, result.target].filter((x) => x !== null).join(", ")})`,
          `bank answered:        ${result.answered ? "yes" : "no"}`,
          `credentials accepted: ${result.credentialsAccepted === null ? "unknown" : result.credentialsAccepted ? "yes" : "no"}`,
          `latency:              ${latencyMs} ms`,
          `bank said:            ${result.message || "-"}`,
        ].join("\n");
  return { json, text, ok: result.answered && result.credentialsAccepted === true };
}

const list = defineCommand({
  meta: {
    name: "list",
    description:
      "List bank connections, their banks (secrets redacted) and their breakers' health. A breaker lives in the serving kasa: name its metrics listener with --metrics-url to see its states; without it every connection shows closed (this command's own view).\n\nExample: kasa connections list --json --metrics-url http://127.0.0.1:9464/metrics",
  },
  args: {
    "metrics-url": {
      type: "string",
      description: "read the breakers from this running kasa's /metrics (default $KASA_METRICS_URL)",
      valueHint: "URL",
    },
    ...commonArgs,
  },
  run: async ({ args }) => {
    const url = optional(args["metrics-url"]) ?? optional(process.env.KASA_METRICS_URL);
    const health = url === null ? undefined : await healthFromMetrics(url);
    await withStore(args, async ({ store }) => {
      const { rows, text } = await listConnections(store, BANKS, health);
      output(args, rows, text);
    });
  },
});

const check = defineCommand({
  meta: {
    name: "check",
    description:
      "Ask the bank of a connection whether it answers and accepts the credentials (EST: ORDERSTATUS for a fresh order id), with the latency.\n\nExample: kasa connections check vpos-est",
  },
  args: { id: { type: "positional", description: "connection id", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const { json, text, ok } = await checkConnection(store, requireArg(args.id, "id"));
      output(args, json, text);
      if (!ok) process.exitCode = 1;
    }),
});

export const connectionsCommand = defineCommand({
  meta: {
    name: "connections",
    description: "Bank connections: list them, check one against its bank.\n\nExample: kasa connections check vpos-est",
  },
  subCommands: { list, check },
});
