import { defineCommand } from "citty";
import pkg from "../package.json" with { type: "json" };
import { agreementsCommand, holdsCommand } from "./commands/acceptance";
import { keysCommand } from "./commands/keys";
import { seedCommand } from "./commands/seed";
import { sandboxCommand, serveCommand } from "./commands/serve";
import { versionCommand } from "./commands/version";

/** product 14: every subcommand works on the same database file as the server. */
export const root = defineCommand({
  meta: { name: "kasa", version: pkg.version, description: "Card-payment orchestration service and its operator tools." },
  subCommands: {
    serve: serveCommand,
    sandbox: sandboxCommand,
    seed: seedCommand,
    keys: keysCommand,
    holds: holdsCommand,
    agreements: agreementsCommand,
    version: versionCommand,
  },
});
