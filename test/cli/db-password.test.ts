import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveDbPassword } from "../../cli/db-password";
import { connectPg } from "../../src/store/postgres/pg";
import { Sensitive } from "../../src/sensitive";

// Product 27: a PostgreSQL password may come from a file (or $PGPASSWORD) instead of the URL on
// the command line. postgres.js connects lazily: nothing here opens a connection.

const dir = mkdtempSync(join(tmpdir(), "kasa-dbpw-"));

describe("product 27: --db-password-file", () => {
  it("the file's first line is the password, kept Sensitive", () => {
    const file = join(dir, "pw");
    writeFileSync(file, "s3cret-from-file\nignored\n", { mode: 0o600 });
    const pw = resolveDbPassword({ "db-password-file": file });
    expect(pw?.reveal()).toBe("s3cret-from-file");
    expect(String(pw)).not.toContain("s3cret");
  });

  it.each([
    ["no flag", {}, null],
    ["a missing file", { "db-password-file": join(dir, "none") }, /cannot read --db-password-file .*ENOENT/],
  ])("%s", (_name, args, expected) => {
    if (expected === null) expect(resolveDbPassword(args)).toBeNull();
    else expect(() => resolveDbPassword(args)).toThrow(expected);
  });

  it("an empty first line is refused", () => {
    const file = join(dir, "empty");
    writeFileSync(file, "\nsecond\n");
    expect(() => resolveDbPassword({ "db-password-file": file })).toThrow(/first line is empty/);
  });

  it("the driver is given the file's password, before the URL's; without a file the URL's", async () => {
    const fromFile = connectPg("postgres://kasa@127.0.0.1:1/kasa", 1, new Sensitive("from-file"));
    const overUrl = connectPg("postgres://kasa:in-url@127.0.0.1:1/kasa", 1, new Sensitive("from-file"));
    const inUrl = connectPg("postgres://kasa:in-url@127.0.0.1:1/kasa", 1, null);
    const pass = (sql: ReturnType<typeof connectPg>) => (sql.options as { pass?: unknown }).pass;
    expect([pass(fromFile), pass(overUrl), pass(inUrl)]).toEqual(["from-file", "from-file", "in-url"]);
    for (const sql of [fromFile, overUrl, inUrl]) await sql.end();
  });
});
