import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSqliteStore as openStore } from "../../../src/store/sqlite/sqlite-store";
import { downgradeToVersion1 } from "../../../src/store/sqlite/inspect";

// Brief / product 18: a database made before the panel (schema version 1) still opens, and gains
// the panel's tables; what it held stays.
describe("product 18 schema: an existing database gains the panel tables", () => {
  it("a version-1 database without panel tables opens and gets them", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "kasa-migrate-")), "old.db");
    const old = await openStore(path);
    await old.write(async (tx) => await tx.meta.set("kept", "yes"));
    downgradeToVersion1(old);
    await old.close();
    const store = await openStore(path);
    expect(await store.q.panelUsers.list(null)).toEqual([]);
    expect(await store.q.panelAudit.page("ptn_x", null, 1)).toEqual([]);
    expect(await store.q.meta.get("kept")).toBe("yes");
    await store.close();
  });
});
