import { describe, expect, it, vi } from "vitest";
import { reconcileCommand } from "../../cli/commands/reconcile";
import { CliError } from "../../cli/cli-error";
import { openSqliteStore } from "../../src/store/sqlite/sqlite-store";
import { moneyDb, runError, runJson, seededDb, T0 } from "./cli-run";

// Reconciliation (docs/reconciliation.md): `kasa reconcile run|list|show` and their exit codes (0 nothing left, 1 findings for
// an operator, 2 usage), over the simulated bank's connection of the test seed.

const DAY = "2026-03-02"; // cli-run's T0, in Istanbul

/** `run` prints its JSON before exiting 1: the output and the error both. */
async function runLeavingFindings(args: string[]): Promise<{ runs: unknown[]; error: unknown }> {
  let out = "";
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  let error: unknown = null;
  try {
    await import("citty").then(({ runCommand }) => runCommand(reconcileCommand, { rawArgs: [...args, "--json"] }));
  } catch (e) {
    error = e;
  } finally {
    write.mockRestore();
  }
  return { runs: JSON.parse(out) as unknown[], error };
}

describe("product 26: kasa reconcile", () => {
  it.each([
    ["in the future", "2999-01-01"],
    ["not a real date", "2026-02-30"],
    ["not YYYY-MM-DD", "yesterday"],
  ])("run --date %s is a usage error (exit 2)", async (_name, date) => {
    const db = await seededDb();
    const e = await runError(reconcileCommand, ["run", "--db", db, "--date", date]);
    expect(e.exitCode).toBe(2);
    expect(e.message).toContain("--date");
  });

  it("run --connection of no connection is a usage error (exit 2)", async () => {
    const db = await seededDb();
    expect(await runError(reconcileCommand, ["run", "--db", db, "--connection", "vpos-nope"])).toMatchObject({ exitCode: 2 });
  });

  it("run with the default scope: the simulated bank's connections are left out; nothing to do, exit 0", async () => {
    const db = await seededDb();
    expect(await runJson(reconcileCommand, ["run", "--db", db])).toEqual([]);
  });

  it("run --connection on the simulated bank: the JSON of product 26, exit 0 when nothing is left; list and show read it back", async () => {
    const db = await seededDb();
    const runs = await runJson<Array<Record<string, unknown>>>(reconcileCommand, [
      "run",
      "--db",
      db,
      "--connection",
      "vpos-1",
      "--date",
      DAY,
    ]);
    expect(runs).toEqual([
      {
        id: expect.stringMatching(/^rec_[0-9a-z]{20}$/),
        connectionId: "vpos-1",
        date: DAY,
        counts: { matched: 0, amount_mismatch: 0, bank_approved: 0, bank_missing: 0, unknown: 0, not_in_kasa: 0, in_progress: 0 },
        findings: [],
      },
    ]);
    const id = runs[0]!.id as string;
    expect(await runJson(reconcileCommand, ["list", "--db", db])).toEqual(runs);
    expect(await runJson(reconcileCommand, ["show", id, "--db", db])).toEqual(runs[0]);
    expect(await runError(reconcileCommand, ["show", "rec_nope", "--db", db])).toMatchObject({ exitCode: 1 });
  });

  it("run exits 1 when a finding remains, after printing the runs: a capture the bank has no record of is bank_missing", async () => {
    const db = await moneyDb();
    // A captured attempt with no capture reference the simulated bank minted: no record there.
    const store = await openSqliteStore(db);
    await store.write(async (tx) => {
      await tx.attempts.insert({
        id: "att-cli00000000000000001",
        paymentCode: "pay_cli0000000000000002",
        status: "capturing",
        counted: true,
        createdAtMs: T0,
        terminalId: "T-1",
        connectionId: "vpos-1",
      });
      await tx.attempts.move("att-cli00000000000000001", ["capturing"], "captured", T0);
    });
    await store.close();
    const { runs, error } = await runLeavingFindings(["run", "--db", db, "--connection", "vpos-1", "--date", DAY]);
    const findings = (runs[0] as { findings: Array<{ class: string }> }).findings;
    expect(findings).toMatchObject([
      { class: "bank_missing", paymentCode: "pay_cli0000000000000002", attemptId: "att-cli00000000000000001", bank: { status: "none" } },
    ]);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(1);
  });
});
