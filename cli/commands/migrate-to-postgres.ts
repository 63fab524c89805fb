import { defineCommand } from "citty";
import type postgres from "postgres";
import { copyFromSqlite, openCopyTarget, type CopyReport, TargetNotEmptyError } from "../../src/store/postgres/copy-from-sqlite";
import { describeDb, isPostgresUrl } from "../../src/store/open";
import { readSnapshot, schemaVersions } from "../../src/store/sqlite/export-rows";
import { CliError } from "../cli-error";
import { output, requireArg, table } from "../context";
import { openVerified } from "./maintenance";

// docs/postgresql.md: `kasa migrate-to-postgres --from FILE --to URL` copies a SQLite database into an empty
// PostgreSQL database, all or nothing (docs/postgresql.md). The file is only read, as one snapshot.

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).split("\n")[0]!;

export const migrateToPostgresCommand = defineCommand({
  meta: {
    name: "migrate-to-postgres",
    description:
      "Copy a SQLite database into an empty PostgreSQL database (all or nothing).\n\n" +
      "Example: kasa migrate-to-postgres --from /var/lib/kasa/kasa.db --to postgres://kasa@db.internal/kasa",
  },
  args: {
    from: { type: "string", description: "the SQLite database file (only read)", valueHint: "FILE" },
    to: { type: "string", description: "the PostgreSQL database, which must hold no kasa data", valueHint: "URL" },
    json: { type: "boolean", description: "print machine-readable JSON" },
  },
  run: async ({ args }) => {
    const from = requireArg(args.from, "from");
    const to = requireArg(args.to, "to");
    if (!isPostgresUrl(to)) throw new CliError("--to must be a postgres:// URL", 2);
    const target = describeDb(to);

    const db = await openVerified(from);
    let report: CopyReport;
    try {
      const versions = schemaVersions(db);
      if (versions.file !== versions.kasa)
        throw new CliError(
          `${from} is at schema version ${versions.file}, this kasa's is ${versions.kasa}: run kasa check --db ${from} once to bring it up to date`,
        );
      let sql: postgres.Sql;
      try {
        sql = await openCopyTarget(to);
      } catch (error) {
        throw new CliError(`cannot open ${target}: ${message(error)}`);
      }
      const snapshot = readSnapshot(db);
      try {
        report = await copyFromSqlite(sql, snapshot);
      } catch (error) {
        if (error instanceof TargetNotEmptyError)
          throw new CliError(`${target} already holds kasa data (${error.tables.join(", ")}): nothing copied, a copy never merges`);
        throw new CliError(`copy into ${target} failed, nothing was kept: ${message(error)}`);
      } finally {
        snapshot.close();
        await sql.end();
      }
    } finally {
      db.close();
    }
    output(args, { ok: true, from, to: target, tables: report.tables, rows: report.rows }, () =>
      [
        table(report.tables),
        `copied ${report.rows} rows of ${report.tables.length} tables from ${from} to ${target}; start kasa serve --db with that URL and the same master key`,
      ].join("\n\n"),
    );
  },
});
