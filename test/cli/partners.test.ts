import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { partnersCommand } from "../../cli/commands/partners";
import { runError, runHuman, runJson, seededDb } from "./cli-run";

type Partner = Record<string, unknown> & {
  webhook: { url: string | null; secretHint: string | null };
  amountLimits: { min: number | null; max: number | null };
};
type Detail = Partner & { acceptance: { acceptingPayments: boolean }; terminals: string[] };

describe("product 14: kasa partners list|show", () => {
  it("list --json prints every partner with its settings; the webhook secret only as a hint", async () => {
    const db = await seededDb();
    const out = await runJson<Partner[]>(partnersCommand, ["list", "--db", db]);
    expect(out.map((p) => p.id)).toEqual(["ptn_other", "ptn_test"]);
    expect(out[1]).toEqual({
      id: "ptn_test",
      name: "Test Shop",
      status: "active",
      allowedRedirectHosts: ["shop.example"],
      amountLimits: { min: null, max: null },
      cardAttemptLimit: 3,
      installmentCap: 12,
      webhook: { url: "http://127.0.0.1:9/hooks", secretHint: "…cret" },
      rateLimitMultiplier: 1,
      payoutAccount: "TR000000000000000000000001",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(JSON.stringify(out)).not.toContain("whsec_test_secret");
  });

  it("show --json adds the acceptance status and the terminals", async () => {
    const db = await seededDb();
    const out = await runJson<Detail>(partnersCommand, ["show", "ptn_test", "--db", db]);
    expect(out.acceptance).toEqual({ acceptingPayments: true, partnerStatus: "active", holds: [], agreements: null });
    expect(out.terminals).toEqual(["T-1", "T-NET", "T-OFF"]);
  });

  it("show of an unknown partner is one line, exit 1", async () => {
    const db = await seededDb();
    expect(await runError(partnersCommand, ["show", "ptn_nope", "--db", db])).toEqual({ message: "unknown partner ptn_nope", exitCode: 1 });
  });

  it("human output is an aligned table", async () => {
    const db = await seededDb();
    const text = await runHuman(partnersCommand, ["list", "--db", db]);
    const [head, rule, ...rows] = text.split("\n");
    expect(head).toMatch(/^id\s+name\s+status\s+accepting\s+min\s+max\s+webhook$/);
    expect(rule).toMatch(/^-+( +-+)+$/);
    expect(rows[1]).toMatch(/^ptn_test\s+Test Shop\s+active\s+yes/);
    expect(text).not.toContain("whsec_test_secret");
  });
});

/** A file holding `text`, as an operator would write a secret. */
function secretFile(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "kasa-secret-")), "secret");
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

describe("product 14: kasa partners set", () => {
  it("changes the given settings only and prints the partner", async () => {
    const db = await seededDb();
    const out = await runJson<Detail>(partnersCommand, [
      "set",
      "ptn_test",
      "--status",
      "suspended",
      "--amount-min",
      "100",
      "--amount-max",
      "5000000",
      "--allowed-hosts",
      "a.example,b.example,a.example",
      "--card-attempt-limit",
      "5",
      "--rate-limit-multiplier",
      "2.5",
      "--webhook-secret-file",
      secretFile("whsec_0123456789abcdef\n"),
      "--db",
      db,
    ]);
    expect(out).toMatchObject({
      status: "suspended",
      amountLimits: { min: 100, max: 5_000_000 },
      allowedRedirectHosts: ["a.example", "b.example"],
      cardAttemptLimit: 5,
      rateLimitMultiplier: 2.5,
      installmentCap: 12,
      name: "Test Shop",
      webhook: { url: "http://127.0.0.1:9/hooks", secretHint: "…cdef" },
      acceptance: { acceptingPayments: false, partnerStatus: "suspended" },
    });
    expect(await runJson(partnersCommand, ["show", "ptn_test", "--db", db])).toEqual(out);
  });

  it('"none" removes an optional setting', async () => {
    const db = await seededDb();
    const out = await runJson<Partner>(partnersCommand, [
      "set",
      "ptn_test",
      "--installment-cap",
      "none",
      "--webhook-url",
      "none",
      "--allowed-hosts",
      "none",
      "--payout-account",
      "none",
      "--db",
      db,
    ]);
    expect(out).toMatchObject({ installmentCap: null, allowedRedirectHosts: null, payoutAccount: null, webhook: { url: null } });
  });

  it("human output shows amounts as TRY", async () => {
    const db = await seededDb();
    const text = await runHuman(partnersCommand, ["set", "ptn_test", "--amount-max", "5000075", "--db", db]);
    expect(text).toMatch(/^amount max\s+50\.000,75 TL$/m);
  });

  it.each([
    [["--card-attempt-limit", "21"], /^--card-attempt-limit: /],
    [["--card-attempt-limit", "x"], /^--card-attempt-limit: must be an integer/],
    [["--installment-cap", "37"], /^--installment-cap: /],
    [["--amount-min", "-1"], /^--amount-min: /],
    [["--amount-min", "900", "--amount-max", "800"], /^--amount-min: must be <= the maximum \(800\)/],
    [["--webhook-url", "ftp://x.example/h"], /^--webhook-url: /],
    [["--webhook-secret-file", secretFile("short")], /^--webhook-secret-file: /],
    [["--webhook-secret-file", "/nonexistent/secret"], /^--webhook-secret-file: cannot read \/nonexistent\/secret \(ENOENT\)$/],
    // Product 23: a secret on the command line is visible in ps; the old flag is refused, not ignored.
    [["--webhook-secret", "whsec_0123456789abcdef"], /^--webhook-secret: secrets are not taken on the command line/],
    [["--allowed-hosts", "Shop.Example"], /^--allowed-hosts\[0\]: /],
    [["--allowed-hosts", "a,,b"], /^--allowed-hosts: /],
    [["--rate-limit-multiplier", "0.5"], /^--rate-limit-multiplier: /],
    [["--name", ""], /^--name: /],
    [["--status", "sleeping"], /--status/],
    [[], /^nothing to set/],
  ])("%j is a usage error (exit 2) that names the flag and writes nothing", async (flags, message) => {
    const db = await seededDb();
    const before = await runJson(partnersCommand, ["show", "ptn_test", "--db", db]);
    const err = await runError(partnersCommand, ["set", "ptn_test", ...flags, "--db", db]);
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(message);
    expect(err.message.split("\n")).toHaveLength(1);
    expect(await runJson(partnersCommand, ["show", "ptn_test", "--db", db])).toEqual(before);
  });

  it("an unknown partner is exit 1", async () => {
    const db = await seededDb();
    expect(await runError(partnersCommand, ["set", "ptn_nope", "--status", "closed", "--db", db])).toEqual({
      message: "unknown partner ptn_nope",
      exitCode: 1,
    });
  });
});
