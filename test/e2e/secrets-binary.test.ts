import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EST_SIM_ACCOUNT } from "../../src/bank/est/sim/accounts";
import { DEMO_WEBHOOK_SECRET } from "../../src/domain/partners/demo-seed";
import { freePort } from "../support/free-port";

// Issue 20 through the binary: the sandbox makes its own master key beside its database (0600)
// and keeps the demo webhook secret and the EST credentials sealed; `serve` on that database
// without the key file, or with another key, refuses with one line and exit 1.

describe("issue 20: secrets at rest through the binary", () => {
  it("sandbox: DB.key 0600 beside the database; no secret in clear in the file or its WAL; serve refuses without the key", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kasa-secrets-e2e-"));
    const db = join(dir, "sandbox.db");
    const port = await freePort();
    const child = spawn("dist/kasa", ["sandbox", "--port", String(port), "--db", db, "--log-format", "pretty"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d) => (out += String(d)));
    const until = Date.now() + 20_000;
    while (!/API key:/.test(out) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(out).toContain("API key:");
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));

    expect(statSync(`${db}.key`).mode & 0o777).toBe(0o600);
    const bytes = [db, `${db}-wal`]
      .filter(existsSync)
      .map((f) => readFileSync(f).toString("latin1"))
      .join("");
    for (const secret of [DEMO_WEBHOOK_SECRET, EST_SIM_ACCOUNT.apiPassword, EST_SIM_ACCOUNT.storeKey])
      expect(bytes.includes(secret), secret).toBe(false);

    // The same database under serve: with its key file it is read; moved away from it, refused.
    const listed = spawnSync("dist/kasa", ["connections", "list", "--json", "--db", db], { encoding: "utf8" });
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('"storeKey": "[redacted]"');
    const moved = join(dir, "elsewhere.db");
    spawnSync("cp", [db, moved]);
    const refused = spawnSync("dist/kasa", ["serve", "--port", String(await freePort()), "--db", moved, "--allow-demo-key"], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/master key/);
  }, 60_000);
});
