import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/open";
import { freePort } from "../support/free-port";
import { freshDatabase, type PgCluster, startPgCluster } from "../support/pg-cluster";
import { oneRequest } from "../support/one-request";

const BINARY = "dist/kasa";

let cluster: PgCluster | undefined;
afterAll(async () => await cluster?.stop());

/** A new database of each kind: a file, or (product 22) a database on a throw-away PostgreSQL. */
async function newDatabase(kind: "sqlite" | "postgres"): Promise<string> {
  if (kind === "sqlite") return join(mkdtempSync(join(tmpdir(), "kasa-e2e-")), "sandbox.db");
  cluster ??= await startPgCluster();
  return (await freshDatabase(cluster.url)).url;
}

describe("product 19 graceful shutdown of the compiled binary", () => {
  // Not asserted yet: "no request got a reset". Under Bun, closing the listener resets a few requests
  // that were connecting at that instant (seen in about half of the runs here); see docs/operating.md (issue 20).
  it.each([["sqlite"], ["postgres"]] as const)(
    "%s: SIGTERM under load: exit 0, every answered payment is in the database, only connection errors after SIGTERM",
    async (kind) => {
      const port = await freePort();
      const db = await newDatabase(kind);
      const child = spawn(BINARY, ["sandbox", "--port", String(port), "--db", db, "--limits", "off", "--log-format", "json"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (d) => (out += String(d)));
      child.stderr.on("data", (d) => (out += String(d)));
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const deadline = Date.now() + 20_000;
      // --log-format json: the banner is a JSON line too, its API key under "apiKey".
      while (!/"apiKey":"([^"]+)"/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const key = /"apiKey":"([^"]+)"/.exec(out)![1]!;

      const acknowledged: string[] = [];
      const failures: string[] = [];
      const ends: string[] = [];
      let n = 0;
      let stopping = false;
      const worker = async () => {
        for (;;) {
          const r = await oneRequest(port, "POST", "/v1/payments", key, {
            amount: 10_000,
            partnerTxCode: `sd-${++n}`,
            terminalId: "T-1001",
            returnUrl: "https://shop.example/done",
          });
          if ("error" in r) {
            // After SIGTERM the listener is gone: the connection is refused (or, see above, reset).
            if (!stopping) failures.push(r.error);
            else ends.push(r.error);
            return;
          }
          if (r.status === 201) acknowledged.push(JSON.parse(r.body).paymentCode);
          else failures.push(`status ${r.status}: ${r.body}`);
        }
      };
      const workers = Array.from({ length: 8 }, worker);
      await new Promise((r) => setTimeout(r, 1_000));
      stopping = true;
      child.kill("SIGTERM");
      await Promise.all(workers);
      expect(await exited, out.slice(-2000)).toBe(0);
      expect(failures).toEqual([]);
      expect(acknowledged.length).toBeGreaterThan(20);

      const store = await openStore(db);
      const missing: string[] = [];
      for (const code of acknowledged) if ((await store.q.payments.get(code)) === undefined) missing.push(code);
      await store.close();
      expect(missing).toEqual([]);
      expect(ends.every((e) => e === "ECONNREFUSED" || e === "ECONNRESET")).toBe(true);
      // --log-format json: the request lines went out as JSON.
      expect(out).toMatch(
        /^\{"time":"[^"]+","level":"info","tag":"sandbox","msg":"request","method":"POST","route":"\/v1\/payments","status":201/m,
      );
    },
    60_000,
  );
});
