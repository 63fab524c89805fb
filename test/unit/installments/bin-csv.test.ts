import { describe, expect, it } from "vitest";
import { BIN_CSV_MAX_ROWS, parseBinCsv } from "../../../src/domain/installments/bin-csv";

const HEADER = "bin,brand,family,bank,installments";

// The demo BIN table of product 6, as an operator would export it.
const DEMO = [
  HEADER,
  "40000011,bonus,credit,Demo Bank A,true",
  "40000022,world,credit,Demo Bank B,true",
  "40000033,,debit,Demo Bank A,false",
  "40000055,,foreign,,false",
  "40000012,bonus,credit,Demo Bank A,false",
].join("\n");

describe("product 14 kasa bins import: accepted files", () => {
  it("parses the demo table, empty brand and bank as null", () => {
    expect(parseBinCsv(DEMO)).toEqual({
      ok: true,
      rows: [
        { bin: "40000011", brand: "bonus", family: "credit", bank: "Demo Bank A", installments: true },
        { bin: "40000022", brand: "world", family: "credit", bank: "Demo Bank B", installments: true },
        { bin: "40000033", brand: null, family: "debit", bank: "Demo Bank A", installments: false },
        { bin: "40000055", brand: null, family: "foreign", bank: null, installments: false },
        { bin: "40000012", brand: "bonus", family: "credit", bank: "Demo Bank A", installments: false },
      ],
    });
  });

  it.each([
    ["CRLF line ends, a BOM and a trailing newline", `\uFEFF${HEADER}\r\n40000011,bonus,credit,Demo Bank A,true\r\n`],
    ["blank lines and padded fields", `${HEADER}\n\n 40000011 , bonus ,credit, Demo Bank A ,true\n   \n`],
    ["a quoted bank name", `${HEADER}\n40000011,"bonus",credit,"Demo Bank A",true`],
  ])("%s", (_name, text) => {
    expect(parseBinCsv(text)).toEqual({
      ok: true,
      rows: [{ bin: "40000011", brand: "bonus", family: "credit", bank: "Demo Bank A", installments: true }],
    });
  });

  it.each([
    ["a comma inside quotes", `${HEADER}\n40000011,,credit,"Bank, A.S.",true`, "Bank, A.S."],
    ["a doubled quote", `${HEADER}\n40000011,,credit,"The ""Demo"" Bank",true`, 'The "Demo" Bank'],
  ])("%s", (_name, text, bank) => {
    const result = parseBinCsv(text);
    expect(result.ok && result.rows[0]?.bank).toBe(bank);
  });

  it("a header alone is an empty table", () => {
    expect(parseBinCsv(`${HEADER}\n`)).toEqual({ ok: true, rows: [] });
  });
});

describe("product 14 kasa bins import: the first bad line rejects the whole file", () => {
  it.each([
    ["empty file", "", 1, null],
    ["wrong header", "bin,brand,family,bank", 1, null],
    ["header in another order", "brand,bin,family,bank,installments", 1, null],
    ["bin of 6 digits", `${HEADER}\n400000,bonus,credit,A,true`, 2, "bin"],
    ["bin of 9 digits", `${HEADER}\n400000110,bonus,credit,A,true`, 2, "bin"],
    ["bin with a letter", `${HEADER}\n4000001a,bonus,credit,A,true`, 2, "bin"],
    ["bin empty", `${HEADER}\n,bonus,credit,A,true`, 2, "bin"],
    ["family unknown", `${HEADER}\n40000011,bonus,charge,A,true`, 2, "family"],
    ["family in capitals", `${HEADER}\n40000011,bonus,Credit,A,true`, 2, "family"],
    ["installments yes", `${HEADER}\n40000011,bonus,credit,A,yes`, 2, "installments"],
    ["installments empty", `${HEADER}\n40000011,bonus,credit,A,`, 2, "installments"],
    ["brand too long", `${HEADER}\n40000011,${"b".repeat(121)},credit,A,true`, 2, "brand"],
    ["bank too long", `${HEADER}\n40000011,bonus,credit,${"a".repeat(121)},true`, 2, "bank"],
    ["too few fields", `${HEADER}\n40000011,bonus,credit,true`, 2, null],
    ["too many fields", `${HEADER}\n40000011,bonus,credit,A,true,x`, 2, null],
    ["unterminated quote", `${HEADER}\n40000011,"bonus,credit,A,true`, 2, null],
    ["text after a quoted field", `${HEADER}\n40000011,"bonus"x,credit,A,true`, 2, null],
    ["stray quote", `${HEADER}\n40000011,bo"nus,credit,A,true`, 2, null],
    [
      "duplicate bin, reported on its second line",
      `${HEADER}\n40000011,bonus,credit,A,true\n40000022,world,credit,B,true\n40000011,bonus,credit,A,true`,
      4,
      "bin",
    ],
    ["line numbers count blank lines", `${HEADER}\n\n40000011,bonus,credit,A,true\n\nbad`, 5, null],
    ["only the first bad line is reported", `${HEADER}\n1,bonus,credit,A,true\n40000011,bonus,nope,A,true`, 2, "bin"],
  ] as const)("%s -> line %i, field %s", (_name, text, line, field) => {
    const result = parseBinCsv(text);
    expect(result).toEqual({ ok: false, line, field, message: expect.any(String) });
    if (!result.ok && field !== null) expect(result.message.startsWith(`${field}: `)).toBe(true);
  });

  it("names the first line of a duplicated bin", () => {
    const result = parseBinCsv(`${HEADER}\n40000011,bonus,credit,A,true\n40000011,bonus,credit,A,true`);
    expect(result).toEqual({ ok: false, line: 3, field: "bin", message: "bin: 40000011 already on line 2" });
  });

  it(`refuses more than ${BIN_CSV_MAX_ROWS} rows`, () => {
    const lines = [HEADER];
    for (let i = 0; i <= BIN_CSV_MAX_ROWS; i += 1) lines.push(`${String(10_000_000 + i)},,credit,,true`);
    expect(parseBinCsv(lines.join("\n"))).toEqual({
      ok: false,
      line: BIN_CSV_MAX_ROWS + 2,
      field: null,
      message: `file: at most ${BIN_CSV_MAX_ROWS} rows`,
    });
  });
});
