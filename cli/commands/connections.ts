import { randomBytes } from "node:crypto";
import { defineCommand } from "citty";
import { checkEstConnection } from "../../src/bank/est/adapter";
import { parseEstConfig, redactEstConfig } from "../../src/bank/est/config";
import { CliError, commonArgs, output, requireArg, table, withStore } from "../context";
import type { ConnectionRow } from "../../src/store/rows";

// `kasa connections list|check` (product 17). A connection's bank settings are shown with their
// secrets (`apiPassword`, `storeKey`) as [redacted], in every output.

function toConnectionJson(c: ConnectionRow) {
  return {
    connectionId: c.id,
    psp: c.pspId,
    bank: c.bank,
    active: c.active,
    est: c.bank === "est" ? redactEstConfig(parseEstConfig(c.id, c.bankConfig)) : null,
  };
}

const list = defineCommand({
  meta: { name: "list", description: "List bank connections and their banks (secrets redacted).\n\nExample: kasa connections list --json" },
  args: { ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const rows = (await store.q.catalog.connections()).map(toConnectionJson);
      output(args, rows, () =>
        table(
          rows.map((r) => ({
            connection: r.connectionId,
            psp: r.psp,
            bank: r.bank,
            active: r.active ? "yes" : "no",
            model: r.est?.model ?? "-",
            api: r.est ? String(r.est.apiUrl) : "-",
          })),
        ),
      );
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
      const c = await store.q.catalog.connection(requireArg(args.id, "id"));
      if (!c) throw new CliError(`unknown connection ${args.id}`);
      if (c.bank === "sim") {
        output(
          args,
          { connectionId: c.id, bank: "sim", answered: true, credentialsAccepted: true, latencyMs: 0, message: "built in" },
          () => `${c.id}: the simulated bank is built in; nothing to check`,
        );
        return;
      }
      const config = parseEstConfig(c.id, c.bankConfig);
      const oid = `CHK${randomBytes(8).toString("hex").toUpperCase()}`;
      const result = await checkEstConnection(config, { fetch: (url, init) => fetch(url, init) }, oid, () => performance.now());
      const latencyMs = Math.round(result.latencyMs);
      const json = { connectionId: c.id, bank: c.bank, apiUrl: config.apiUrl, orderId: oid, ...result, latencyMs };
      output(args, json, () =>
        [
          `${c.id} (${c.bank}, ${config.apiUrl})`,
          `bank answered:        ${result.answered ? "yes" : "no"}`,
          `credentials accepted: ${result.credentialsAccepted === null ? "unknown" : result.credentialsAccepted ? "yes" : "no"}`,
          `latency:              ${latencyMs} ms`,
          `bank said:            ${result.message || "-"}`,
        ].join("\n"),
      );
      if (!result.answered || !result.credentialsAccepted) process.exitCode = 1;
    }),
});

export const connectionsCommand = defineCommand({
  meta: {
    name: "connections",
    description: "Bank connections: list them, check one against its bank (product 17).\n\nExample: kasa connections check vpos-est",
  },
  subCommands: { list, check },
});
