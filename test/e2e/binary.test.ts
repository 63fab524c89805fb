import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../src/store/sqlite/migrate";
import { parseMasterKey } from "../../src/store/secret-box";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { readPragma } from "../../src/store/sqlite/inspect";
import { freePort } from "../support/free-port";

const BINARY = "dist/kasa";

describe("issue 2 end to end: the compiled binary", () => {
  it("kasa sandbox prints its key, answers the acceptance endpoint and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const db = join(mkdtempSync(join(tmpdir(), "kasa-e2e-")), "sandbox.db");
    const child = spawn(BINARY, ["sandbox", "--port", String(port), "--db", db, "--log-format", "pretty"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += String(d)));
    child.stderr.on("data", (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const deadline = Date.now() + 20_000;
    while (!/API key:\s+(\S+)/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const key = /API key:\s+(\S+)/.exec(out)?.[1];
    expect(key, out).toBeDefined();
    expect(out).toContain(`http://127.0.0.1:${port}`);
    expect(out).toContain("Webhook secret:");
    expect(out).toContain("4000001100000009");

    const res = await fetch(`http://127.0.0.1:${port}/v1/payment-acceptance`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ acceptingPayments: true, partnerStatus: "active", holds: [], agreements: null });
    expect((await fetch(`http://127.0.0.1:${port}/v1/payment-acceptance`)).status).toBe(401);

    // product 18: the banner's demo panel user logs in; its password is an Argon2id hash (Bun.password).
    const panel = /Panel:\s+\S+\s+(\S+) \/ (\S+)/.exec(out);
    expect(panel?.[1], out).toBe("demo@kasa.test");
    const login = await fetch(`http://127.0.0.1:${port}/panel/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: panel![1]!, password: panel![2]! }).toString(),
    });
    expect(login.status).toBe(303);
    expect(login.headers.get("set-cookie")).toContain("HttpOnly; SameSite=Strict");

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    // The sandbox made its own master key beside the database (product 19): the partner row's secret is sealed.
    const store = await openStore(db, { masterKey: parseMasterKey(readFileSync(`${db}.key`, "utf8")) });
    expect(readPragma(store, "integrity_check")).toEqual({ integrity_check: "ok" });
    expect((await store.q.partners.get("ptn_demo"))?.name).toBe("Demo Shop");
    expect((await store.q.panelUsers.byEmail("demo@kasa.test"))?.passwordHash).toMatch(/^\$argon2id\$/);
    await store.close();
  });

  it("product 27: with stdout not a terminal the logs are JSON lines from the first, the banner too, without the panel password", async () => {
    const port = await freePort();
    const db = join(mkdtempSync(join(tmpdir(), "kasa-e2e-")), "sandbox.db");
    const child = spawn(BINARY, ["sandbox", "--port", String(port), "--db", db], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const deadline = Date.now() + 20_000;
    while (!out.includes('"apiKey"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    const lines = out.split("\n").filter((l) => l !== "");
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    const banner = JSON.parse(lines[0]!);
    expect(banner).toMatchObject({
      level: "info",
      msg: `kasa sandbox listening on http://127.0.0.1:${port}`,
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: "kasa_sk_demo_0000000000000000000000000000000000",
      webhookSecret: expect.any(String),
      panelEmail: "demo@kasa.test",
      terminals: expect.arrayContaining([expect.stringContaining("T-1001")]),
    });
    expect(Object.keys(banner).filter((k) => /password/i.test(k))).toEqual([]);
    expect(lines.at(-1)).toContain("kasa stopped cleanly");
  });

  it("kasa version and a usage error", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const c = spawn(BINARY, args);
        let out = "";
        let err = "";
        c.stdout.on("data", (d) => (out += String(d)));
        c.stderr.on("data", (d) => (err += String(d)));
        c.on("exit", (code) => resolve({ code, out, err }));
      });
    const v = await run(["version", "--json"]);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.out)).toMatchObject({ version: expect.any(String), schemaVersion: SCHEMA_VERSION });
    const bad = await run(["frobnicate"]);
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split("\n")).toHaveLength(1);
  });
});
