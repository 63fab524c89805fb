import { describe, expect, it, vi } from "vitest";
import { dayendCommand } from "../../cli/commands/dayend";
import { payoutsCommand } from "../../cli/commands/payouts";
import { moneyDb, runError, runJson } from "./cli-run";

// Issue 29: operator commands build what they use (createDeps), never the HTTP app. The app's
// builder is replaced by one that fails the test if anything calls it.

const built = vi.hoisted(() => ({ count: 0 }));
vi.mock("../../src/app", () => ({
  createApp: () => {
    built.count += 1;
    throw new Error("an operator command built the HTTP app");
  },
}));

describe("issue 29: kasa dayend and kasa payouts mark-paid run without the HTTP app", () => {
  it("kasa dayend runs the due day ends on createDeps alone", async () => {
    const db = await moneyDb();
    expect(await runJson(dayendCommand, ["--db", db])).toEqual(expect.any(Array));
    expect(built.count).toBe(0);
  });

  it("kasa payouts mark-paid|mark-failed answer through their domain service, no app", async () => {
    const db = await moneyDb();
    expect(await runError(payoutsCommand, ["mark-failed", "pob_cli0000000000000001", "--db", db])).toEqual({
      message: "payout batch pob_cli0000000000000001 is paid_out, not pending",
      exitCode: 1,
    });
    expect(await runJson(payoutsCommand, ["export", "--format", "json", "--db", db])).toEqual([]);
    expect(built.count).toBe(0);
  });
});
