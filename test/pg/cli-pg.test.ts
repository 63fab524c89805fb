import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, inject, it } from "vitest";
import { backupCommand } from "../../cli/commands/maintenance";
import { linksCommand } from "../../cli/commands/links";
import { migrateToPostgresCommand } from "../../cli/commands/migrate-to-postgres";
import { partnersCommand } from "../../cli/commands/partners";
import { paymentsCommand } from "../../cli/commands/payments";
import { payoutsCommand } from "../../cli/commands/payouts";
import { rotateMasterKeyCommand } from "../../cli/commands/rotate-master-key";
import { seedCommand } from "../../cli/commands/seed";
import { terminalsCommand } from "../../cli/commands/terminals";
import { webhooksCommand } from "../../cli/commands/webhooks";
import { newMasterKeyText } from "../../src/store/secret-box";
import { moneyDb, runError, runJson } from "../cli/cli-run";
import { TEST_SEED } from "../support/fixtures";
import { freshDatabase } from "../support/pg-cluster";

// Product 22: "the operator CLI works against a PostgreSQL URL exactly as against a file".
// Differential: the CLI tests' money database as a file and as its copy on PostgreSQL; every
// listing answers the same JSON from both.

const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const drop of drops.splice(0)) await drop();
});

async function database(): Promise<string> {
  const db = await freshDatabase(inject("pgUrl"));
  drops.push(db.drop);
  return db.url;
}

describe("product 22: the operator CLI against --db postgres://…", () => {
  it.each([
    ["partners list", partnersCommand, ["list"]],
    ["terminals list", terminalsCommand, ["list"]],
    ["payments list", paymentsCommand, ["list"]],
    ["payments show", paymentsCommand, ["show", "pay_cli0000000000000001"]],
    ["links list", linksCommand, ["list"]],
    ["payouts list", payoutsCommand, ["list"]],
    ["webhooks list", webhooksCommand, ["list"]],
  ] as const)("%s answers as on the SQLite file it was copied from", async (_name, command, args) => {
    const file = await moneyDb();
    const url = await database();
    await runJson(migrateToPostgresCommand, ["--from", file, "--to", url]);
    expect(await runJson(command, [...args, "--db", url])).toEqual(await runJson(command, [...args, "--db", file]));
  });

  it("seed and rotate-master-key work on a URL; backup says what to use instead; nothing prints the password", async () => {
    const url = await database();
    const dir = mkdtempSync(join(tmpdir(), "kasa-cli-pg-"));
    const seed = join(dir, "seed.json");
    writeFileSync(seed, JSON.stringify(TEST_SEED));
    await runJson(seedCommand, [seed, "--db", url]);
    expect(await runJson(partnersCommand, ["list", "--db", url])).toHaveLength(TEST_SEED.partners?.length ?? 0);
    const key = join(dir, "new.key");
    writeFileSync(key, newMasterKeyText(), { mode: 0o600 });
    expect(await runJson(rotateMasterKeyCommand, ["--new-key-file", key, "--db", url])).toMatchObject({ keyFileReplaced: false });
    expect(await runJson(partnersCommand, ["list", "--db", url, "--master-key-file", key])).toHaveLength(TEST_SEED.partners?.length ?? 0);
    expect((await runError(backupCommand, [join(dir, "b.db"), "--db", url, "--master-key-file", key])).message).toMatch(/pg_dump/);
    const unreachable = new URL(url);
    unreachable.password = "s3cret-pass";
    unreachable.port = "1";
    const refused = await runError(partnersCommand, ["list", "--db", unreachable.href]);
    expect(refused).toMatchObject({
      exitCode: 1,
      // The whole user info is masked (product 27), the user name too.
      message: expect.stringMatching(/^cannot open postgres:\/\/\*\*\*@127\.0\.0\.1:1\//),
    });
    expect(refused.message).not.toContain("s3cret");
  });
});
