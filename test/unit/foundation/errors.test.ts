import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ERROR_CATALOG } from "../../../src/errors";

const spec = (name: string) => readFileSync(new URL(`../../../../shared/spec/${name}`, import.meta.url), "utf8");

/** Rows of the form `| code | HTTP | meaning |` in a markdown section. */
function tableCodes(markdown: string, heading: string): Array<[string, number]> {
  const start = markdown.indexOf(heading);
  const end = markdown.indexOf("\n### ", start + heading.length);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^\| ([a-z_]+) \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]);
}

describe("interface 7.2, 7.3 and product 3: the error catalog", () => {
  const interfaceMd = spec("interface.md");
  const rows = [...tableCodes(interfaceMd, "### 7.2 Catalog"), ...tableCodes(interfaceMd, "### 7.3 Handoff-stage codes")];

  it("reads the spec tables", () => expect(rows.length).toBeGreaterThanOrEqual(35));

  it.each(rows)("%s is in the catalog with HTTP %i", (code, status) => {
    expect(ERROR_CATALOG[code as keyof typeof ERROR_CATALOG]?.[0]).toBe(status);
  });

  it.each([
    ["unauthorized", 401],
    ["forbidden", 403],
    ["not_found", 404],
    ["method_not_allowed", 405],
    ["request_too_large", 413],
    ["internal_error", 500],
  ] as const)("product 3: %s is %i", (code, status) => {
    expect(spec("product.md")).toContain(code);
    expect(ERROR_CATALOG[code][0]).toBe(status);
  });

  it("holds nothing the specs do not name", () => {
    const named = new Set([...rows.map(([c]) => c), "unauthorized", "forbidden", "not_found", "method_not_allowed", "request_too_large", "internal_error"]);
    expect(Object.keys(ERROR_CATALOG).filter((c) => !named.has(c))).toEqual([]);
  });
});
