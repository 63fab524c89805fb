import { describe, expect, it } from "vitest";
import { keysCommand } from "../../cli/commands/keys";
import { runError, runJson, seededDb } from "./cli-run";

type Key = { id: string; partnerId: string; hint: string; revokedAt: string | null; key?: string };

// `kasa keys` calls the same service as the panel's admin page (src/domain/partners/keys.ts).
describe("product 14 kasa keys issue|list|revoke", () => {
  it("issue shows the key once; list shows its hint; revoke marks it", async () => {
    const db = await seededDb();
    const issued = await runJson<Key>(keysCommand, ["issue", "--partner", "ptn_test", "--db", db]);
    expect(issued.key).toMatch(/^kasa_sk_/);
    const listed = await runJson<Key[]>(keysCommand, ["list", "--partner", "ptn_test", "--db", db]);
    expect(listed.find((k) => k.id === issued.id)).toEqual({ ...issued, key: undefined });
    expect((await runJson<Key>(keysCommand, ["revoke", issued.id, "--db", db])).revokedAt).not.toBeNull();
  });

  it("an unknown partner or key is one line, exit 1", async () => {
    const db = await seededDb();
    expect(await runError(keysCommand, ["issue", "--partner", "ptn_nope", "--db", db])).toEqual({
      message: "unknown partner ptn_nope",
      exitCode: 1,
    });
    expect(await runError(keysCommand, ["revoke", "key_nope", "--db", db])).toEqual({ message: "unknown key key_nope", exitCode: 1 });
  });
});
