import { defineCommand } from "citty";
import pkg from "../package.json" with { type: "json" };
import { agreementsCommand, holdsCommand } from "./commands/acceptance";
import { connectionsCommand } from "./commands/connections";
import { dayendCommand } from "./commands/dayend";
import { binsCommand } from "./commands/bins";
import { installmentsCommand } from "./commands/installments";
import { keysCommand } from "./commands/keys";
import { backupCommand, checkCommand, restoreCommand } from "./commands/maintenance";
import { linksCommand } from "./commands/links";
import { migrateToPostgresCommand } from "./commands/migrate-to-postgres";
import { partnersCommand } from "./commands/partners";
import { paymentsCommand } from "./commands/payments";
import { payoutsCommand } from "./commands/payouts";
import { reconcileCommand } from "./commands/reconcile";
import { refundsCommand } from "./commands/refunds";
import { rotateMasterKeyCommand } from "./commands/rotate-master-key";
import { seedCommand } from "./commands/seed";
import { sandboxCommand, serveCommand } from "./commands/serve";
import { terminalsCommand } from "./commands/terminals";
import { usersCommand } from "./commands/users";
import { versionCommand } from "./commands/version";
import { openapiCommand } from "./commands/openapi";
import { webhooksCommand } from "./commands/webhooks";

/** docs/operating.md, The operator CLI: every subcommand works on the same database file as the server. */
export const root = defineCommand({
  meta: { name: "kasa", version: pkg.version, description: "Card-payment orchestration service and its operator tools." },
  subCommands: {
    serve: serveCommand,
    sandbox: sandboxCommand,
    seed: seedCommand,
    partners: partnersCommand,
    terminals: terminalsCommand,
    connections: connectionsCommand,
    keys: keysCommand,
    payments: paymentsCommand,
    links: linksCommand,
    refunds: refundsCommand,
    webhooks: webhooksCommand,
    holds: holdsCommand,
    agreements: agreementsCommand,
    bins: binsCommand,
    installments: installmentsCommand,
    payouts: payoutsCommand,
    dayend: dayendCommand,
    reconcile: reconcileCommand,
    backup: backupCommand,
    restore: restoreCommand,
    check: checkCommand,
    "rotate-master-key": rotateMasterKeyCommand,
    "migrate-to-postgres": migrateToPostgresCommand,
    openapi: openapiCommand,
    users: usersCommand,
    version: versionCommand,
  },
});
