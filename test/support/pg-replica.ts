import { spawnSync } from "node:child_process";
import { appendFileSync, chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type PgStandby, replicationStandbys } from "../../src/store/postgres/inspect";
import { freePort } from "./free-port";
import { asRoot, logTail, pgBinDir, postgresIds, runPg, withAdmin } from "./pg-cluster";

// A primary and its synchronous standby (product 22's failover, test/e2e/pg-failover.test.ts),
// built from pg-cluster.ts's pieces: the same Debian binaries, the same `postgres` account when run
// as root, a temp dir, loopback only, trust auth. The primary waits for the standby to have flushed
// a commit's WAL before it answers (synchronous_commit=on with the standby named in
// synchronous_standby_names), so whatever kasa acknowledged is on the standby when the primary dies.
// The standby runs without synchronous_standby_names: once promoted it is a primary alone, and a
// primary waiting for a standby it does not have would hang every commit.

export type PgReplicaPair = {
  primaryPort: number;
  standbyPort: number;
  /** One server by port, one database: postgres://postgres@127.0.0.1:PORT/DB. */
  url(port: number, database: string): string;
  /** Both servers, the writable one chosen by postgres.js: what kasa is given to survive a failover. */
  failoverUrl(database: string): string;
  /** The primary is lost: every process of it quits at once, nothing flushed, no shutdown checkpoint. */
  killPrimary(): Promise<void>;
  /** The standby leaves recovery and takes writes; resolves once it does. */
  promoteStandby(): Promise<void>;
  stop(): Promise<void>;
};

/** The standby's name in the primary's pg_stat_replication and synchronous_standby_names. */
const STANDBY_NAME = "kasa_standby";

/** Settings both servers start with (the standby reads none of the primary's command line). */
const common = (dir: string, port: number) =>
  `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=on -c synchronous_commit=on -c wal_level=replica -c max_wal_senders=4`;

/** pg_ctl start on a free port, tried again on a new one when another process took the port in between. */
async function startOnFreePort(bin: string, dir: string, data: string, log: string, extra: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const start = await runPg(
      bin,
      "pg_ctl",
      ["start", "-w", "-t", "60", "-D", data, "-l", log, "-o", `${common(dir, port)} ${extra}`],
      dir,
    );
    if (start.code === 0) return port;
    if (attempt === 3) throw new Error(`pg_ctl start of ${data} failed on port ${port}:\n${start.output}\n${logTail(log)}`);
  }
}

/** Resolves once the primary reports the standby streaming and synchronous. */
async function waitForSyncStandby(url: string, logs: () => string): Promise<void> {
  const deadline = performance.now() + 30_000;
  let seen: PgStandby[] = [];
  await withAdmin(url, async (sql) => {
    while (performance.now() < deadline) {
      seen = await replicationStandbys(sql);
      if (seen.some((s) => s.applicationName === STANDBY_NAME && s.state === "streaming" && s.syncState === "sync")) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the standby is not a streaming synchronous standby after 30 s: ${JSON.stringify(seen)}\n${logs()}`);
  });
}

/** Starts the pair in a new temp dir; `stop` shuts both down and removes the dir. */
export async function startPgReplicaPair(): Promise<PgReplicaPair> {
  const bin = await pgBinDir();
  const dir = mkdtempSync(join(tmpdir(), "kasa-pg-replica-"));
  const primary = join(dir, "primary");
  const standby = join(dir, "standby");
  const primaryLog = join(dir, "primary.log");
  const standbyLog = join(dir, "standby.log");

  // A run that dies without its teardown must not leave servers behind: both stopped synchronously
  // as the process exits (pg_ctl on a server already stopped just says so).
  const stopNow = () => {
    const path = join(bin, "pg_ctl");
    for (const data of [standby, primary]) {
      const args = ["stop", "-D", data, "-m", "immediate"];
      spawnSync(asRoot ? "runuser" : path, asRoot ? ["-u", "postgres", "--", path, ...args] : args, { cwd: dir });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", stopNow);

  try {
    if (asRoot) {
      const { uid, gid } = postgresIds();
      chownSync(dir, uid, gid);
    }
    const init = await runPg(bin, "initdb", ["-D", primary, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"], dir);
    if (init.code !== 0) throw new Error(`initdb failed in ${dir}:\n${init.output}`);
    // initdb's pg_hba.conf trusts replication connections from 127.0.0.1 (`host replication all
    // 127.0.0.1/32 trust`): pg_basebackup and the standby need nothing more.
    const primaryPort = await startOnFreePort(bin, dir, primary, primaryLog, `-c synchronous_standby_names=${STANDBY_NAME}`);

    // A fast checkpoint: the default spread one makes pg_basebackup wait for minutes. -R writes
    // standby.signal and primary_conninfo; the line appended after it (the last one wins) names the
    // standby, which is what synchronous_standby_names matches.
    const backup = await runPg(
      bin,
      "pg_basebackup",
      ["-D", standby, "-R", "-X", "stream", "-c", "fast", "--no-sync", "-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres"],
      dir,
    );
    if (backup.code !== 0) throw new Error(`pg_basebackup failed:\n${backup.output}\n${logTail(primaryLog)}`);
    appendFileSync(
      join(standby, "postgresql.auto.conf"),
      `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres application_name=${STANDBY_NAME}'\n`,
    );
    const standbyPort = await startOnFreePort(bin, dir, standby, standbyLog, "-c hot_standby=on");

    const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
    await waitForSyncStandby(url(primaryPort, "postgres"), () => `${logTail(primaryLog)}\n${logTail(standbyLog)}`);

    let stopped: Promise<void> | undefined;
    return {
      primaryPort,
      standbyPort,
      url,
      failoverUrl: (database) =>
        `postgres://postgres@127.0.0.1:${primaryPort},127.0.0.1:${standbyPort}/${database}?target_session_attrs=primary`,
      killPrimary: async () => {
        const result = await runPg(bin, "pg_ctl", ["stop", "-D", primary, "-m", "immediate", "-w"], dir);
        if (result.code !== 0) throw new Error(`pg_ctl stop -m immediate of the primary failed:\n${result.output}`);
      },
      promoteStandby: async () => {
        const result = await runPg(bin, "pg_ctl", ["promote", "-w", "-t", "60", "-D", standby], dir);
        if (result.code !== 0) throw new Error(`pg_ctl promote failed:\n${result.output}\n${logTail(standbyLog)}`);
      },
      stop: () => {
        stopped ??= (async () => {
          process.removeListener("exit", stopNow);
          // The primary may be gone already (killPrimary): pg_ctl then answers "no server running".
          await runPg(bin, "pg_ctl", ["stop", "-D", primary, "-m", "immediate", "-w"], dir);
          const result = await runPg(bin, "pg_ctl", ["stop", "-D", standby, "-m", "fast", "-w"], dir);
          rmSync(dir, { recursive: true, force: true });
          if (result.code !== 0) throw new Error(`pg_ctl stop of the standby failed:\n${result.output}`);
        })();
        return stopped;
      },
    };
  } catch (error) {
    process.removeListener("exit", stopNow);
    stopNow();
    throw error;
  }
}
