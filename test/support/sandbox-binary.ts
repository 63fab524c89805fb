import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port";

// The compiled binary's sandbox for an end-to-end test: a fresh database in its own folder, the
// human banner (its API key is read from it), everything the process prints kept for the test.

export type SandboxBinary = {
  child: ChildProcess;
  base: string;
  db: string;
  dir: string;
  /** The demo key's Authorization header, and JSON. */
  headers: Record<string, string>;
  /** Everything the process printed so far, stdout and stderr. */
  output(): string;
  /** `kasa seed` of these rows (a seed file's sections) into the sandbox's database; throws on a refusal. */
  seed(name: string, rows: object): void;
  kill(): void;
};

/** `extraArgs`: more `kasa sandbox` flags (e.g. `--reconcile-at off`). */
export async function startSandboxBinary(prefix: string, extraArgs: readonly string[] = []): Promise<SandboxBinary> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const db = join(dir, "sandbox.db");
  const child = spawn("dist/kasa", ["sandbox", "--port", String(port), "--db", db, "--log-format", "pretty", ...extraArgs], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  child.stdout!.on("data", (d) => (text += String(d)));
  child.stderr!.on("data", (d) => (text += String(d)));
  const until = Date.now() + 20_000;
  while (!/API key:\s+\S+/.test(text)) {
    if (Date.now() > until || child.exitCode !== null) throw new Error(`no sandbox banner: ${text.slice(-500)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const key = /API key:\s+(\S+)/.exec(text)![1];
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    db,
    dir,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    output: () => text,
    seed(name, rows) {
      const file = join(dir, name);
      writeFileSync(file, JSON.stringify(rows));
      const seeded = spawnSync("dist/kasa", ["seed", file, "--db", db], { encoding: "utf8" });
      if (seeded.status !== 0) throw new Error(`kasa seed ${name}: ${seeded.stderr}`);
    },
    kill: () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
