import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applySeed, parseSeed } from "../../../src/domain/partners/seed";
import { downgradeToVersion6, readPragma } from "../../../src/store/sqlite/inspect";
import { SCHEMA_VERSION } from "../../../src/store/sqlite/migrate";
import { openSqliteStore as openStore } from "../../../src/store/sqlite/sqlite-store";
import { TEST_SEED } from "../../support/fixtures";

// Issue 29: a database made before attempts recorded their route (schema version 6) still opens;
// its attempts gain the terminal and connection they went to, which were their payment's.

const T0 = Date.parse("2026-11-20T09:00:00.000Z");

describe("issue 29 schema: older attempts are filled from their payment", () => {
  it("a version-6 database opens at the current version with every attempt routed to its payment's terminal and connection", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "kasa-migrate-")), "old.db");
    const old = await openStore(path);
    await applySeed(old, parseSeed(TEST_SEED), T0, () => `key_${Math.random()}`);
    await old.write(async (tx) => {
      await tx.payments.insert({
        code: "pay_old",
        partnerId: "ptn_test",
        terminalId: "T-NET",
        connectionId: "vpos-1",
        partnerTxCode: "old-1",
        channel: "api",
        linkId: null,
        amount: 10_000,
        principal: 10_000,
        currency: "TRY",
        installment: 1,
        description: null,
        returnUrl: null,
        paymentRef: "ref_old",
        expiresAtMs: T0 + 1_800_000,
        createdAtMs: T0,
      });
      const attempt = { paymentCode: "pay_old", counted: true, createdAtMs: T0, terminalId: null, connectionId: null };
      await tx.attempts.insert({ ...attempt, id: "att_1", status: "declined" });
      await tx.attempts.insert({ ...attempt, id: "att_2", status: "acs" });
    });
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
