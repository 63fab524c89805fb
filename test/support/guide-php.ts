import { spawn, spawnSync } from "node:child_process";

// The guide's PHP programs run under Debian's php-cli (issue 39). A machine without `php` gets it
// here the way the PostgreSQL tests get postgresql (test/support/pg-cluster.ts): apt-get as root or
// through password-less sudo. When that is impossible the test fails with the reason; it never
// skips, because a guide whose PHP went untested would look tested.

const asRoot = process.getuid?.() === 0;

const hasPhp = (): boolean => spawnSync("php", ["--version"], { stdio: "ignore" }).status === 0;

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("error", (error) => resolve({ code: -1, output: error.message }));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** Installs php-cli when `php` is missing; throws, naming the step that failed, when it cannot. */
export async function ensurePhp(): Promise<void> {
  if (hasPhp()) return;
  process.stderr.write("[guide tests] `php` is missing: installing Debian's php-cli (apt-get update && apt-get install -y php-cli)\n");
  const sudo = asRoot ? [] : ["sudo", "-n"];
  for (const step of [
    ["apt-get", "update"],
    ["apt-get", "install", "-y", "php-cli"],
  ]) {
    const [command, ...args] = [...sudo, ...step] as [string, ...string[]];
    const result = await run(command, args);
    if (result.code !== 0) {
      throw new Error(
        `php is not installed and \`${step.join(" ")}\` failed${asRoot ? "" : " (not root: it needs password-less sudo)"}; ` +
          `install the Debian package php-cli and run again.\n${result.output.slice(-2000)}`,
      );
    }
  }
  if (!hasPhp()) throw new Error("apt-get installed php-cli but `php --version` still fails");
}
