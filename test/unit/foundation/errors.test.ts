import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOG } from "../../../src/errors";

// The project's own error reference (docs/errors.md, written from interface 7.2, 7.3 and product 3)
// and the catalog in src/errors.ts hold exactly the same codes with the same statuses.

const reference = readFileSync(new URL("../../../docs/errors.md", import.meta.url), "utf8");

/** Rows of the form `| code | HTTP | meaning |`. */
const rows: Array<[string, number]> = [...reference.matchAll(/^\| ([a-z_]+) \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]);

describe("interface 7.2, 7.3 and product 3: the error catalog matches docs/errors.md", () => {
  it("reads the reference tables", () => expect(rows.length).toBeGreaterThanOrEqual(41));

  it("names each code once", () => expect(new Set(rows.map(([c]) => c)).size).toBe(rows.length));

  it.each(rows)("%s is in the catalog with HTTP %i", (code, status) => {
    expect(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG]?.[0]).toBe(status);
  });

  it("holds nothing the reference does not name", () => {
    const named = new Set(rows.map(([c]) => c));
    expect(Object.keys(ERROR_CATALOG).filter((c) => !named.has(c))).toEqual([]);
  });
});
