import { applySeed, parseSeed } from "../../src/domain/partners/seed";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { readPragma, schemaOf } from "../../src/store/sqlite/inspect";
import { TEST_SEED } from "./fixtures";

/**
 * One fixed scenario through the store; the same JSON must come out of both drivers
 * (issue 2). Run in-process, or as `bun test/support/driver-probe.ts bun` from a Node test.
 */
export async function probeDriver(driver: "bun" | "node") {
  const store = await openStore(":memory:", driver);
  let n = 0;
  await applySeed(store, parseSeed(TEST_SEED), 1_763_000_000_000, () => `key_${++n}`);
  await Promise.all([
    store.write(async (tx) => await tx.partners.nextLinkReference("ptn_test")),
    store.write(async (tx) => await tx.partners.nextLinkReference("ptn_test")),
    store.write(async (tx) => await tx.acceptance.setHold({ partnerId: "ptn_other", reason: "admin_hold", sinceMs: 5 })),
  ]);
  const schema = schemaOf(store);
  const result = {
    schema,
    userVersion: readPragma(store, "user_version"),
    partners: await store.q.partners.list(),
    terminals: await store.q.catalog.terminals(null),
    bins: await Promise.all(["40000011", "40000055", "99999999"].map(async (b) => (await store.q.catalog.bin(b)) ?? null)),
    keys: await store.q.apiKeys.list(null),
    holds: await store.q.acceptance.holds("ptn_other"),
    nextRef: await store.write(async (tx) => await tx.partners.nextLinkReference("ptn_test")),
  };
  await store.close();
  return result;
}

if (process.argv[1]?.endsWith("driver-probe.ts") && process.argv[2]) {
  process.stdout.write(JSON.stringify(await probeDriver(process.argv[2] as "bun" | "node")));
}
