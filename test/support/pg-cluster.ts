import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { createDatabase, dropDatabase, resetDatabase } from "../../src/store/postgres/inspect";
import { freePort } from "./free-port";

// A throw-away PostgreSQL cluster for the `pg` test project (issue 23): one per test run, started by
// test/pg/global-setup.ts, a fresh database per test on it. It lives in a temp dir and listens on
// 127.0.0.1 only, on a port nobody else holds, with trust auth: nothing outside this machine can
// reach it, and no password has to be kept anywhere. fsync and synchronous_commit stay on (kasa's
// durability is part of what the tests prove); only initdb skips its syncs, the files it writes
// are gone after the run either way. The API suite's cluster (`durable: false`) answers a commit
// before its WAL is flushed: those tests are about what kasa answers, not about the disk, and
// a flush per commit would cost them most of their time.

export type PgCluster = { url: string; port: number; stop(): Promise<void> };

/** Debian puts every major version in its own folder; the product targets 15, a newer one will do. */
const PG_ROOT = "/usr/lib/postgresql";
const PREFERRED_MAJOR = "15";

/** initdb refuses to run as root, so as root the server binaries run as the `postgres` account. */
export const asRoot = process.getuid?.() === 0;

export type Result = { code: number | null; output: string };

/** Runs a command to its end and keeps what it printed, for the error message when it fails. */
function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** A server binary run as the account that owns the cluster; cwd is the temp dir, which that account can read. */
export function runPg(bin: string, tool: string, args: string[], cwd: string): Promise<Result> {
  const path = join(bin, tool);
  return asRoot ? run("runuser", ["-u", "postgres", "--", path, ...args], { cwd }) : run(path, args, { cwd });
}

function findBinDir(): string | undefined {
  if (!existsSync(PG_ROOT)) return undefined;
  const majors = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  const major = majors.includes(PREFERRED_MAJOR) ? PREFERRED_MAJOR : majors[0];
  return major === undefined ? undefined : join(PG_ROOT, major, "bin");
}

/**
 * A fresh CI machine may lack PostgreSQL: install Debian's package (root, or password-less sudo),
 * so `npm run test:pg` needs no step of its own in the CI file.
 */
async function installPostgres(): Promise<void> {
  const sudo = asRoot ? [] : ["sudo", "-n"];
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const step of [
    ["apt-get", "update"],
    ["apt-get", "install", "-y", "postgresql"],
  ]) {
    const [command, ...args] = [...sudo, ...step] as [string, ...string[]];
    const result = await run(command, args, { env }).catch((error: Error) => ({ code: -1, output: error.message }));
    if (result.code !== 0) {
      throw new Error(
        `PostgreSQL is not installed (no ${PG_ROOT}/*/bin/initdb) and \`${step.join(" ")}\` failed` +
          `${asRoot ? "" : " (not root: it needs password-less sudo)"}; install the Debian package postgresql and run again.\n` +
          result.output.slice(-2000),
      );
    }
  }
}

/** The folder of the server binaries (initdb, pg_ctl, pg_basebackup), installing PostgreSQL first when it is missing. */
export async function pgBinDir(): Promise<string> {
  let bin = findBinDir();
  if (bin === undefined) {
    await installPostgres();
    bin = findBinDir();
    if (bin === undefined) throw new Error(`apt-get installed postgresql but there is still no ${PG_ROOT}/*/bin/initdb`);
  }
  return bin;
}

/** The account's numeric ids, for chown: the cluster's files must belong to the user that runs the server. */
export function postgresIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync("id", [flag, "postgres"], { encoding: "utf8" }).stdout.trim());
  const ids = { uid: id("-u"), gid: id("-g") };
  if (!Number.isInteger(ids.uid) || !Number.isInteger(ids.gid)) throw new Error("running as root, but there is no `postgres` account");
  return ids;
}

export const logTail = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").slice(-2000) : "");

/**
 * Starts one cluster in a new temp dir; `stop` shuts it down and removes the dir. `settings` are
 * more server settings (`name=value`), e.g. pg_stat_statements for a profile of the bench.
 */
export async function startPgCluster(options: { durable?: boolean; settings?: readonly string[] } = {}): Promise<PgCluster> {
  const commits = options.durable === false ? "-c synchronous_commit=off" : "-c synchronous_commit=on";
  const settings = (options.settings ?? []).map((s) => `-c ${s}`).join(" ");
  const bin = await pgBinDir();
  const dir = mkdtempSync(join(tmpdir(), "kasa-pg-"));
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    if (asRoot) {
      const { uid, gid } = postgresIds();
      chownSync(dir, uid, gid);
    }
    const init = await runPg(bin, "initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"], dir);
    if (init.code !== 0) throw new Error(`initdb failed in ${dir}:\n${init.output}`);

    // The port is free when asked and taken by the server an instant later; another process may
    // take it in between, so a start that fails is tried again on a new port.
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=on ${commits} ${settings}`;
      const start = await runPg(bin, "pg_ctl", ["start", "-w", "-t", "60", "-D", data, "-l", log, "-o", options], dir);
      if (start.code === 0) return running(bin, dir, data, port, removeDir);
      if (attempt === 3) throw new Error(`pg_ctl start failed on port ${port}:\n${start.output}\n${logTail(log)}`);
    }
  } catch (error) {
    removeDir();
    throw error;
  }
}

function running(bin: string, dir: string, data: string, port: number, removeDir: () => void): PgCluster {
  // A run that dies without its teardown (an uncaught error, a second Ctrl-C) must not leave a
  // server behind: stop it synchronously as the process exits.
  const onExit = () => {
    const args = ["stop", "-D", data, "-m", "immediate"];
    const path = join(bin, "pg_ctl");
    spawnSync(asRoot ? "runuser" : path, asRoot ? ["-u", "postgres", "--", path, ...args] : args, { cwd: dir });
    removeDir();
  };
  process.once("exit", onExit);
  let stopped: Promise<void> | undefined;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () => {
      stopped ??= (async () => {
        process.removeListener("exit", onExit);
        const result = await runPg(bin, "pg_ctl", ["stop", "-D", data, "-m", "fast", "-w"], dir);
        removeDir();
        if (result.code !== 0) throw new Error(`pg_ctl stop failed:\n${result.output}`);
      })();
      return stopped;
    },
  };
}

/** A connection to one database of the cluster, closed after the work. */
export async function withAdmin(clusterUrl: string, work: (sql: postgres.Sql) => Promise<void>): Promise<void> {
  const sql = postgres(clusterUrl, { max: 1, onnotice: () => {} });
  try {
    await work(sql);
  } finally {
    await sql.end();
  }
}

/**
 * A new, empty database on the cluster for one test, so tests in parallel workers never see each
 * other's rows; `drop` removes it, closing connections the test left open.
 */
export async function freshDatabase(clusterUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `kasa_test_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await withAdmin(clusterUrl, (sql) => createDatabase(sql, name));
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => withAdmin(clusterUrl, (sql) => dropDatabase(sql, name)) };
}

/**
 * A database a test file's harnesses use one after another: `empty` makes it as new again
 * (resetDatabase), far cheaper than making a new one, over a connection of its own kept between
 * uses (it closes itself after a few idle seconds).
 */
export async function reusableDatabase(clusterUrl: string): Promise<{ url: string; empty(): Promise<void> }> {
  const { url } = await freshDatabase(clusterUrl);
  const sql = postgres(url, { max: 1, idle_timeout: 5, onnotice: () => {} });
  return { url, empty: () => resetDatabase(sql) };
}
