import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../../../src/store/sqlite/sqlite-store";
import type { Store } from "../../../src/store/store";

// Product 27: the simulated bank's own signing secret (meta `sim.secret`) is sealed at rest like
// the partners' webhook secrets and the connections' settings, and re-sealed with them.

const master = Buffer.alloc(32, 7);
let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

describe("product 27: a bank's own secret is sealed at rest", () => {
  it("made once per database, sealed under the master key, the same secret on every start", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "kasa-secret-")), "k.db");
    store = await openSqliteStore(db, { masterKey: master });
    expect(await store.q.secrets.bankSecret("sim", "sim_first-secret-value")).toBe("sim_first-secret-value");
    expect(await store.q.secrets.bankSecret("sim", "sim_second-secret-value")).toBe("sim_first-secret-value");
    const stored = await store.q.meta.get("sim.secret");
    expect(stored).toMatch(/^kasa-enc:v1:/);
    expect(stored).not.toContain("first-secret");
    await store.close();
    store = await openSqliteStore(db, { masterKey: master });
    expect(await store.q.secrets.bankSecret("sim", "sim_third")).toBe("sim_first-secret-value");
  });

  it("a secret made in clear is sealed when the first master key is given, and opens with it", async () => {
    const db = join(mkdtempSync(join(tmpdir(), "kasa-secret-")), "k.db");
    store = await openSqliteStore(db);
    expect(await store.q.secrets.bankSecret("sim", "sim_made-in-clear")).toBe("sim_made-in-clear");
    expect(await store.q.meta.get("sim.secret")).toBe("sim_made-in-clear");
    await store.close();
    store = await openSqliteStore(db, { masterKey: master });
    expect(await store.q.meta.get("sim.secret")).toMatch(/^kasa-enc:v1:/);
    expect(await store.q.secrets.bankSecret("sim", "sim_other")).toBe("sim_made-in-clear");
  });
});
