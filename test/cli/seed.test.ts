import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand } from "citty";
import { describe, expect, it, vi } from "vitest";
import { seedCommand } from "../../cli/commands/seed";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { TEST_SEED } from "../support/fixtures";

function tempDb(): { dir: string; db: string } {
  const dir = mkdtempSync(join(tmpdir(), "kasa-seed-"));
  return { dir, db: join(dir, "kasa.db") };
}

/** Everything a seed writes, read back through the store's named operations. */
async function dump(db: string): Promise<Record<string, unknown[]>> {
  const store = await openStore(db);
  try {
    const q = store.q;
    const partners = await q.partners.list();
    const perPartner = async <T>(read: (id: string) => Promise<T[]>) => (await Promise.all(partners.map((p) => read(p.id)))).flat();
    return {
      psps: await q.fixtures.psps(),
      connections: await q.catalog.connections(),
      partners,
      api_keys: await q.apiKeys.list(null),
      terminals: await q.catalog.terminals(null),
      bins: await q.fixtures.bins(),
      holds: await perPartner((id) => q.acceptance.holds(id)),
      agreements: await perPartner((id) => q.acceptance.agreements(id)),
    };
  } finally {
    await store.close();
  }
}

async function seed(db: string, dir: string, content: unknown): Promise<void> {
  const file = join(dir, `seed-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  try {
    await runCommand(seedCommand, { rawArgs: [file, "--db", db, "--json"] });
  } finally {
    write.mockRestore();
  }
}

describe("product 15: kasa seed FILE", () => {
  it("loads every section", async () => {
    const { dir, db } = tempDb();
    await seed(db, dir, { ...TEST_SEED, holds: [{ partner: "ptn_other", reason: "admin_hold" }] });
    const d = await dump(db);
    expect(d.partners).toHaveLength(2);
    expect(d.api_keys).toHaveLength(3);
    expect(d.terminals).toHaveLength(4);
    expect(d.bins).toHaveLength(TEST_SEED.bins!.length);
    expect(d.holds).toHaveLength(1);
    expect(JSON.stringify(d)).not.toContain("kasa_sk_test_aaaa"); // keys are stored only as SHA-256
  });

  it("running the same seed twice is a no-op", async () => {
    const { dir, db } = tempDb();
    const file = {
      ...TEST_SEED,
      agreements: [
        {
          partner: "ptn_test",
          agreementCode: "DPA",
          agreementName: "DP",
          version: "1",
          requirement: "consent",
          kind: "first",
          accepted: true,
        },
      ],
    };
    await seed(db, dir, file);
    const first = await dump(db);
    await seed(db, dir, file);
    expect(await dump(db)).toEqual(first);
  });

  it.each([
    ["partners[0].status", { partners: [{ id: "p", name: "P", status: "sleeping" }] }],
    ["partners[0].name", { partners: [{ id: "p" }] }],
    ["partners[0].apiKeys[0]", { partners: [{ id: "p", name: "P", apiKeys: ["short"] }] }],
    [
      "terminals[0].rates[0].rateBps",
      { ...TEST_SEED, terminals: [{ ...TEST_SEED.terminals![0]!, rates: [{ count: 1, rateBps: 10000 }] }] },
    ],
    ["terminals[0].connection", { ...TEST_SEED, terminals: [{ ...TEST_SEED.terminals![0]!, connection: "missing" }] }],
    ["bins[0].bin", { bins: [{ bin: "1234", family: "credit" }] }],
    ["connections[0].psp", { connections: [{ id: "c", psp: "nope" }] }],
    ["extra", { extra: [] }],
    ["holds[0].partner", { holds: [{ partner: "ghost", reason: "admin_hold" }] }],
  ])("a malformed file changes nothing and names %s", async (path, content) => {
    const { dir, db } = tempDb();
    await seed(db, dir, { psps: [{ id: "keep", active: true }] });
    const before = await dump(db);
    await expect(seed(db, dir, content)).rejects.toThrow(path);
    expect(await dump(db)).toEqual(before);
  });

  it("a file that is not JSON is refused", async () => {
    const { dir, db } = tempDb();
    await expect(seed(db, dir, "{nope")).rejects.toThrow(/not valid JSON/);
  });

  it("may refer to rows that already exist in the database (product 16)", async () => {
    const { dir, db } = tempDb();
    await seed(db, dir, TEST_SEED);
    await seed(db, dir, {
      terminals: [{ id: "T-9", partner: "ptn_test", connection: "vpos-1", installments: [1], rates: [{ count: 1, rateBps: 100 }] }],
    });
    expect((await dump(db)).terminals).toHaveLength(5);
  });
});
