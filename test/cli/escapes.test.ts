import { describe, expect, it } from "vitest";
import { escapeControls } from "../../cli/escape";
import { partnersCommand } from "../../cli/commands/partners";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { runHuman, seededDb } from "./cli-run";

// Issue 15 item 9, product 23: partner-supplied text reaches the operator's terminal with its
// control characters escaped: it cannot clear the screen, recolour, move the cursor or forge rows.

const HOSTILE = "Shop\u001b[2J\u001b[H\u001b[31m\r\nptn_fake  Fake  active  yes\u0007\u009b\u202eevil";

describe("product 23: the CLI escapes control characters in partner-supplied text", () => {
  it.each([
    ["ESC (clear screen, colours, cursor)", "\u001b[2J", "\\x1b[2J"],
    ["newline forging a row", "a\nb", "a\\nb"],
    ["carriage return", "a\rb", "a\\rb"],
    ["BEL", "\u0007", "\\x07"],
    ["DEL", "\u007f", "\\x7f"],
    ["C1 CSI", "\u009b", "\\x9b"],
    ["right-to-left override", "\u202e", "\\u202e"],
    ["plain Turkish text is unchanged", "Çiçek Şekerci Ğ İ ı ö ü", "Çiçek Şekerci Ğ İ ı ö ü"],
  ])("%s", (_n, input, shown) => {
    expect(escapeControls(input)).toBe(shown);
  });

  it("kasa partners list and show print a hostile partner name inert, on its own row", async () => {
    const db = await seededDb();
    const store = await openStore(db);
    await store.write(async (tx) => await tx.partners.upsert({ ...(await tx.partners.get("ptn_test"))!, name: HOSTILE }));
    await store.close();
    for (const args of [["list"], ["show", "ptn_test"]]) {
      const text = await runHuman(partnersCommand, [...args, "--db", db]);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no control character may be printed
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
      expect(text).toContain("Shop\\x1b[2J\\x1b[H\\x1b[31m\\r\\nptn_fake");
      expect(text.split("\n").filter((l) => l.startsWith("ptn_fake"))).toEqual([]);
    }
  });
});
