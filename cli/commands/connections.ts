import { defineCommand } from "citty";
import type { BankModule, ConnectionCheck } from "../../src/bank/module";
import { BANKS, bankOf } from "../../src/bank/registry";
import type { Store } from "../../src/store/store";
import type { ConnectionRow } from "../../src/store/rows";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, table, withStore } from "../context";

// `kasa connections list|check` (docs/banks.md). A connection's bank settings are shown as its bank's
// descriptor redacts them: secrets as [redacted], in every output. The functions take the list of
// banks (the registry's unless a test adds one).

/** A connection as JSON: the settings of its bank under the bank's id, null under every other's. */
function toConnectionJson(c: ConnectionRow, banks: readonly BankModule[]) {
  const bank = bankOf(c.bank, banks);
  const settings = Object.fromEntries(
    banks.filter((b) => b.settings !== null).map((b) => [b.id, b.id === bank.id ? bank.redact(c) : null]),
  );
  return { connectionId: c.id, psp: c.pspId, bank: c.bank, active: c.active, ...settings };
}

/** `kasa connections list`: the JSON rows, and the table printed without --json. */
export async function listConnections(store: Store, banks: readonly BankModule[] = BANKS) {
  const connections = await store.q.catalog.connections();
  const rows = connections.map((c) => toConnectionJson(c, banks));
  const text = () =>
    table(
      connections.map((c) => ({
        connection: c.id,
        psp: c.pspId,
        bank: c.bank,
        active: c.active ? "yes" : "no",
        ...bankOf(c.bank, banks).columns(c),
      })),
    );
  return { rows, text };
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
  meta: { name: "list", description: "List bank connections and their banks (secrets redacted).\n\nExample: kasa connections list --json" },
  args: { ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const { rows, text } = await listConnections(store);
      output(args, rows, text);
    }),
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
