import { describe, expect, it } from "vitest";
import { agreementsCommand, holdsCommand } from "../../cli/commands/acceptance";
import { runError, runHuman, runJson, seededDb } from "./cli-run";

type Acceptance = { acceptingPayments: boolean; holds: Array<{ reason: string; effective: boolean }> };

// `kasa holds set|clear` and the partner checks of `kasa agreements`, through the acceptance services.
describe("product 10 kasa holds set|clear", () => {
  it("set stops payments at once; clear lifts it; setting twice keeps one hold", async () => {
    const db = await seededDb();
    const set = await runJson<Acceptance>(holdsCommand, ["set", "--partner", "ptn_test", "--db", db]);
    expect(set).toMatchObject({ acceptingPayments: false, holds: [{ reason: "admin_hold", effective: true }] });
    expect((await runJson<Acceptance>(holdsCommand, ["set", "--partner", "ptn_test", "--db", db])).holds).toHaveLength(1);
    expect(await runHuman(holdsCommand, ["clear", "--partner", "ptn_test", "--db", db])).toBe(
      "admin_hold cleared; ptn_test accepts payments",
    );
  });

  it.each([
    [holdsCommand, ["set"]],
    [holdsCommand, ["clear"]],
    [agreementsCommand, ["add", "--code", "DPA", "--name", "Data", "--version", "1"]],
    [agreementsCommand, ["accept", "--code", "DPA"]],
  ])("an unknown partner is one line, exit 1 (%#)", async (cmd, args) => {
    const db = await seededDb();
    expect(await runError(cmd, [...args, "--partner", "ptn_nope", "--db", db])).toEqual({
      message: "unknown partner ptn_nope",
      exitCode: 1,
    });
  });

  it("adding the same agreement again keeps its acceptance", async () => {
    const db = await seededDb();
    const add = ["add", "--partner", "ptn_test", "--code", "DPA", "--name", "Data", "--version", "1", "--deadline", "2020-01-01T00:00:00Z"];
    await runJson(agreementsCommand, [...add, "--db", db]);
    await runJson(agreementsCommand, ["accept", "--partner", "ptn_test", "--code", "DPA", "--db", db]);
    expect(await runJson<Acceptance>(agreementsCommand, [...add, "--db", db])).toMatchObject({ acceptingPayments: true, agreements: null });
    expect(await runError(agreementsCommand, [...add.slice(0, -1), "tomorrow", "--db", db])).toEqual({
      message: "--deadline: not a date-time: tomorrow",
      exitCode: 2,
    });
  });
});
