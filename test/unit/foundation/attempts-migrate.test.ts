import { mkdtempSync } from "node:fs";
import { seedUnroutedAttempts } from "../../support/unrouted-attempts";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { downgradeToVersion6, readPragma } from "../../../src/store/sqlite/inspect";
import { SCHEMA_VERSION } from "../../../src/store/sqlite/migrate";
import { openSqliteStore as openStore } from "../../../src/store/sqlite/sqlite-store";

// Issue 29: a database made before attempts recorded their route (schema version 6) still opens;
// its attempts gain the terminal and connection they went to, which were their payment's.

describe("issue 29 schema: older attempts are filled from their payment", () => {
  it("a version-6 database opens at the current version with every attempt routed to its payment's terminal and connection", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "kasa-migrate-")), "old.db");
    const old = await openStore(path);
    await seedUnroutedAttempts(old);
    downgradeToVersion6(old);
    await old.close();
    const store = await openStore(path);
    expect(readPragma(store, "user_version")).toEqual({ user_version: SCHEMA_VERSION });
    const routes = (await store.q.attempts.byPayment("pay_old")).map((a) => [a.id, a.status, a.terminalId, a.connectionId]);
    expect(routes).toEqual([
      ["att_1", "declined", "T-NET", "vpos-1"],
      ["att_2", "acs", "T-NET", "vpos-1"],
    ]);
    await store.close();
  });
});
