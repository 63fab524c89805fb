import { describe, expect, it } from "vitest";
import { agreementsCommand } from "../../cli/commands/acceptance";
import { runError, runJson, seededDb } from "./cli-run";

type Acceptance = { acceptingPayments: boolean; agreements: Array<{ agreementCode: string }> | null };

// product 10 / 18: `kasa agreements accept` and the panel's accept share acceptAgreement().
describe("product 10 kasa agreements add|accept", () => {
  it("an agreement past its deadline stops payments; accepting it (any requirement) lifts the hold", async () => {
    const db = await seededDb();
    const added = await runJson<Acceptance>(agreementsCommand, [
      "add",
      "--partner",
      "ptn_test",
      "--code",
      "MSA",
      "--name",
      "Üye İşyeri",
      "--version",
      "1",
      "--requirement",
      "wet_signature",
      "--deadline",
      "2020-01-01T00:00:00Z",
      "--db",
      db,
    ]);
    expect(added.acceptingPayments).toBe(false);
    const accepted = await runJson<Acceptance>(agreementsCommand, ["accept", "--partner", "ptn_test", "--code", "MSA", "--db", db]);
    expect(accepted).toMatchObject({ acceptingPayments: true, agreements: null });
  });

  it("an unknown code is one line, exit 1", async () => {
    const db = await seededDb();
    expect(await runError(agreementsCommand, ["accept", "--partner", "ptn_test", "--code", "NOPE", "--db", db])).toEqual({
      message: "unknown agreement NOPE for ptn_test",
      exitCode: 1,
    });
  });
});
