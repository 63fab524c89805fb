import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "citty";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { binsCommand } from "../../cli/commands/bins";
import { installmentsCommand } from "../../cli/commands/installments";
import { CliError } from "../../cli/cli-error";
import golden from "../../src/domain/installments/golden-vectors.json";
import { quoteAmounts } from "../../src/domain/installments/math";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { runJson } from "../cli/cli-run";

// Product 14 `kasa bins import FILE.csv` and issue 6 `kasa installments quote`, run in-process
// with citty's runCommand; `--json` output is read back from stdout.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "kasa-bins-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

function csv(name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

/** The BIN table's size and the row of one BIN, read from the database file. */
async function binsIn(db: string, bin: string) {
  const store = await openStore(db);
  try {
    return { count: await store.q.catalog.binCount(), row: (await store.q.catalog.bin(bin)) ?? null };
  } finally {
    await store.close();
  }
}

const HEADER = "bin,brand,family,bank,installments";

describe("product 14 kasa bins import FILE.csv", () => {
  it("imports a valid file in one write and prints the number of rows", async () => {
    const db = join(dir, "kasa.db");
    const file = csv("bins.csv", [
      HEADER,
      "40000011,bonus,credit,Demo Bank A,true",
      '40000033,,debit,"Bank, A.S.",false',
      "40000055,,foreign,,false",
    ]);
    expect(await runJson(binsCommand, ["import", file, "--db", db])).toEqual({ file, imported: 3 });
    const store = await openStore(db);
    expect(await store.q.catalog.binCount()).toBe(3);
    expect(await store.q.catalog.bin("40000033")).toEqual({
      bin: "40000033",
      brand: null,
      family: "debit",
      bank: "Bank, A.S.",
      installments: false,
    });
    await store.close();
  });

  it("upserts by BIN: a second import updates rows and keeps the others", async () => {
    const db = join(dir, "kasa.db");
    await runJson(binsCommand, [
      "import",
      csv("a.csv", [HEADER, "40000011,bonus,credit,Demo Bank A,true", "40000022,world,credit,Demo Bank B,true"]),
      "--db",
      db,
    ]);
    await runJson(binsCommand, ["import", csv("b.csv", [HEADER, "40000011,bonus,credit,Demo Bank A,false"]), "--db", db]);
    const store = await openStore(db);
    expect(await store.q.catalog.binCount()).toBe(2);
    expect((await store.q.catalog.bin("40000011"))?.installments).toBe(false);
    await store.close();
  });

  it.each([
    ["a bad family", ["40000011,bonus,credit,Demo Bank A,true", "40000022,world,gold,Demo Bank B,true"], /line 3: family: /],
    ["a 7-digit bin", ["40000011,bonus,credit,Demo Bank A,true", "4000002,world,credit,Demo Bank B,true"], /line 3: bin: /],
    [
      "a bad installments flag",
      ["40000011,bonus,credit,Demo Bank A,true", "40000022,world,credit,Demo Bank B,yes"],
      /line 3: installments: /,
    ],
    [
      "a duplicate bin",
      ["40000011,bonus,credit,Demo Bank A,true", "40000011,world,credit,Demo Bank B,true"],
      /line 3: bin: .*already on line 2/,
    ],
  ])("a file with %s imports nothing, and the error names the line and field", async (_name, lines, message) => {
    const db = join(dir, "kasa.db");
    await runJson(binsCommand, ["import", csv("seed.csv", [HEADER, "54000066,maximum,credit,Demo Bank C,true"]), "--db", db]);
    const attempt = runCommand(binsCommand, { rawArgs: ["import", csv("bad.csv", [HEADER, ...lines]), "--db", db] });
    await expect(attempt).rejects.toBeInstanceOf(CliError);
    await expect(attempt).rejects.toThrow(message);
    expect(await binsIn(db, "40000011")).toEqual({ count: 1, row: null });
  });

  it("a wrong header or a missing file is one clear error", async () => {
    const db = join(dir, "kasa.db");
    await expect(runCommand(binsCommand, { rawArgs: ["import", csv("h.csv", ["bin,brand"]), "--db", db] })).rejects.toThrow(
      /line 1: header: /,
    );
    await expect(runCommand(binsCommand, { rawArgs: ["import", join(dir, "nope.csv"), "--db", db] })).rejects.toThrow(/cannot read/);
  });
});

describe("issue 6 kasa installments quote", () => {
  it("--json prints the golden vectors of product 8", async () => {
    expect(await runJson(installmentsCommand, ["quote"])).toEqual(golden);
  });

  it.each([
    [
      "net, share defaulting to 10000",
      ["--basis", "net", "--base", "100000", "--rate", "220"],
      { basis: "net", baseAmount: 100000, rateBps: 220, fixedFee: null, shareBps: 10000 },
    ],
    [
      "gross, share defaulting to 0",
      ["--base", "100000", "--rate", "450", "--fee", "100"],
      { basis: "gross", baseAmount: 100000, rateBps: 450, fixedFee: 100, shareBps: 0 },
    ],
    [
      "gross, share 5000",
      ["--basis", "gross", "--base", "1", "--rate", "250", "--fee", "100", "--share", "5000"],
      { basis: "gross", baseAmount: 1, rateBps: 250, fixedFee: 100, shareBps: 5000 },
    ],
    [
      "near 2^53",
      ["--base", "9007199254740991", "--rate", "9999"],
      { basis: "gross", baseAmount: 9007199254740991, rateBps: 9999, fixedFee: null, shareBps: 0 },
    ],
  ] as const)("computes one quote from the flags: %s", async (_name, flags, input) => {
    expect(await runJson(installmentsCommand, ["quote", ...flags])).toEqual({ ...input, ...quoteAmounts(input) });
  });

  it.each([
    ["missing --rate", ["--base", "100"], /missing --rate/],
    ["a rate of 10000", ["--base", "100", "--rate", "10000"], /--rate: /],
    ["a fractional base", ["--base", "1.5", "--rate", "10"], /--base: /],
    ["a base of 0", ["--base", "0", "--rate", "10"], /--base: /],
    ["an unknown basis", ["--basis", "gr", "--base", "1", "--rate", "10"], /--basis: /],
    ["a total past 2^53", ["--base", "9007199254740991", "--rate", "10", "--share", "10000"], /--base: the totalAmount would exceed/],
  ])("refuses %s with one clear line", async (_name, flags, message) => {
    await expect(runCommand(installmentsCommand, { rawArgs: ["quote", ...flags] })).rejects.toThrow(message);
  });
});
