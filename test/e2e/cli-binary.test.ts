import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { TEST_SEED } from "../support/fixtures";

// issue 10: the operator CLI through the compiled binary (`npm run build` first), so exit codes
// and the one-line error on stderr are checked where cli/main.ts really calls process.exit.

const BINARY = "dist/kasa";

type Run = { code: number | null; out: string; err: string };

function run(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(BINARY, args, { env: { ...process.env, NO_COLOR: "1" } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += String(d)));
    child.stderr.on("data", (d) => (err += String(d)));
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

describe("issue 10 end to end: operator commands of the compiled binary", () => {
  let db = "";

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "kasa-cli-e2e-"));
    db = join(dir, "kasa.db");
    writeFileSync(join(dir, "seed.json"), JSON.stringify(TEST_SEED));
    const seeded = await run(["seed", join(dir, "seed.json"), "--db", db]);
    expect(seeded.code, seeded.err).toBe(0);
  });

  it("partners list --json prints the partners, without the webhook secret", async () => {
    const r = await run(["partners", "list", "--db", db, "--json"]);
    expect(r.code, r.err).toBe(0);
    const partners = JSON.parse(r.out) as Array<{ id: string; webhook: { secretHint: string | null } }>;
    expect(partners.map((p) => p.id)).toEqual(["ptn_other", "ptn_test"]);
    expect(r.out).not.toContain("whsec_test_secret");
  });

  it("partners show of a missing partner: exit 1, one line on stderr, nothing on stdout", async () => {
    const r = await run(["partners", "show", "ptn_missing", "--db", db]);
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe("kasa: unknown partner ptn_missing\n");
  });

  it.each([
    [["partners", "set", "ptn_test", "--status", "sleeping"], /--status/],
    [["partners", "set", "ptn_test", "--card-attempt-limit", "99"], /^kasa: --card-attempt-limit: /],
    [["terminals", "set", "T-1", "--active", "maybe"], /--active/],
    [["payments", "list", "--limit", "0"], /^kasa: --limit: /],
  ])("%j: a bad flag value is a usage error, exit 2 with one line", async (args, message) => {
    const r = await run([...args, "--db", db]);
    expect(r.code).toBe(2);
    expect(r.err.trim().split("\n")).toHaveLength(1);
    expect(r.err).toMatch(message);
  });

  it("a change made by the CLI is seen by the next command", async () => {
    const set = await run(["partners", "set", "ptn_other", "--status", "suspended", "--db", db, "--json"]);
    expect(set.code, set.err).toBe(0);
    const shown = await run(["partners", "show", "ptn_other", "--db", db, "--json"]);
    expect(JSON.parse(shown.out)).toMatchObject({ status: "suspended", acceptance: { acceptingPayments: false } });
  });

  it("--help shows an example", async () => {
    const r = await run(["payments", "list", "--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("Example: kasa payments list");
  });

  it.each([[["--help"]], [[]]])("issue 14: kasa %j prints the command table within 100 columns", async (args) => {
    const r = await run(args);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^ {2}serve +Run the service\.$/m);
    expect(r.out.split("\n").filter((l) => l.length > 100)).toEqual([]);
  });

  it("issue 21: kasa openapi prints the OpenAPI 3.1 document from the binary", async () => {
    const r = await run(["openapi", "--base-url", "https://pay.example"]);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc).toMatchObject({ openapi: "3.1.0", servers: [{ url: "https://pay.example" }] });
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/v1/payments", "/v1/payments/{paymentCode}", "/sandbox/payments/{paymentCode}/simulate"]),
    );
    expect(doc.paths["/v1/payments"].post.responses["201"].content["application/json"].example.paymentCode).toMatch(/^pay_/);
  });
});
