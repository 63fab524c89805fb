import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCommand, type CommandDef } from "citty";
import { consola } from "consola";
import { vi } from "vitest";
import { seedCommand } from "../../cli/commands/seed";
import { CliError } from "../../cli/cli-error";
import { openSqliteStore as openStore } from "../../src/store/sqlite/sqlite-store";
import { TEST_SEED } from "../support/fixtures";

// In-process runs of operator commands over a temp database file (issue 10): the same code path
// as the binary minus process.exit, with stdout (--json) and consola (human output) captured.

export const T0 = Date.parse("2026-03-02T09:00:00.000Z"); // 12:00 Istanbul

/** A fresh database file loaded with the test seed (two partners, four terminals). */
export async function seededDb(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "kasa-cli-"));
  const db = join(dir, "kasa.db");
  const seed = join(dir, "seed.json");
  writeFileSync(seed, JSON.stringify(TEST_SEED));
  await runJson(seedCommand, [seed, "--db", db]);
  return db;
}

/** seededDb() plus addMoneyRows(): the database the listing commands' tests read. */
export async function moneyDb(): Promise<string> {
  const file = await seededDb();
  await addMoneyRows(file);
  return file;
}

/** Any command, whatever its arguments (citty types commands by their argument definitions). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyCommand = CommandDef<any>;

/** Runs with `--json` and parses what was printed. */
export async function runJson<T = unknown>(cmd: AnyCommand, rawArgs: string[]): Promise<T> {
  let out = "";
  const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  try {
    await runCommand(cmd, { rawArgs: [...rawArgs, "--json"] });
  } finally {
    write.mockRestore();
  }
  return JSON.parse(out) as T;
}

/** Runs without `--json` and answers the human output. */
export async function runHuman(cmd: AnyCommand, rawArgs: string[]): Promise<string> {
  const lines: string[] = [];
  const log = vi.spyOn(consola, "log").mockImplementation((...a: unknown[]) => void lines.push(a.map(String).join(" ")));
  try {
    await runCommand(cmd, { rawArgs });
  } finally {
    log.mockRestore();
  }
  return lines.join("\n");
}

/** The error a run throws, with the exit code cli/main.ts would use. */
export async function runError(cmd: AnyCommand, rawArgs: string[]): Promise<{ message: string; exitCode: number }> {
  try {
    await runJson(cmd, rawArgs);
  } catch (error) {
    if (error instanceof CliError) return { message: error.message, exitCode: error.exitCode };
    if (error instanceof Error && error.name === "CLIError") return { message: error.message, exitCode: 2 };
    throw error;
  }
  throw new Error(`expected ${rawArgs.join(" ")} to fail`);
}

/**
 * Payments, a link, a refund and a payout batch, written through the store's named operations: the
 * refund and the batch are already settled and paid out, a state the test fixtures write as given.
 */
export async function addMoneyRows(db: string): Promise<void> {
  const store = await openStore(db);
  try {
    await store.write(async (tx) => {
      await tx.links.insert({
        id: "pl_cli0000000000000001",
        partnerId: "ptn_test",
        token: "tok_cli",
        partnerReference: 1,
        terminalId: "T-1",
        status: "completed",
        amount: 10_000,
        shareBps: 0,
        description: "Order 1",
        redirectUrl: null,
        allowedCounts: [1, 3],
        items: [{ name: "Mug", note: null, amount: 10_000 }],
        payerName: null,
        attemptSeq: 1,
        firstOpenedAtMs: T0,
        lastOpenedAtMs: T0,
        expiresAtMs: T0 + 7 * 86_400_000,
        createdAtMs: T0 - 60_000,
        updatedAtMs: T0,
      });
      const base = {
        terminalId: "T-1",
        connectionId: "vpos-1",
        currency: "TRY",
        description: null,
        returnUrl: null,
        expiresAtMs: T0 + 1_800_000,
      };
      await tx.payments.insert({
        ...base,
        code: "pay_cli0000000000000001",
        partnerId: "ptn_test",
        partnerTxCode: "PL-pl_cli0000000000000001-1",
        channel: "link",
        linkId: "pl_cli0000000000000001",
        amount: 10_000,
        principal: 10_000,
        installment: 1,
        paymentRef: "ref_secret_1",
        createdAtMs: T0,
      });
      await tx.payments.insert({
        ...base,
        code: "pay_cli0000000000000002",
        partnerId: "ptn_test",
        partnerTxCode: "ORDER-2",
        channel: "api",
        linkId: null,
        amount: 250_075,
        principal: 250_075,
        installment: 3,
        paymentRef: "ref_secret_2",
        createdAtMs: T0 + 1000,
      });
      await tx.payments.insert({
        ...base,
        code: "pay_cli0000000000000003",
        terminalId: "T-OTHER",
        partnerId: "ptn_other",
        partnerTxCode: "X-1",
        channel: "api",
        linkId: null,
        amount: 500,
        principal: 500,
        installment: 1,
        paymentRef: "ref_secret_3",
        createdAtMs: T0 + 2000,
      });
      const card = {
        maskedPan: "400000******0009",
        cardBrand: "bonus",
        cardFamily: "credit",
        cardBank: "Demo Bank A",
        appliedRateBps: 199,
        appliedFixedFee: null,
      };
      await tx.payments.markThreeDStarted("pay_cli0000000000000001", ["initiated"], card, T0 + 10_000);
      await tx.payments.markCaptured(
        "pay_cli0000000000000001",
        ["initiated"],
        { commissionAmount: 199, netToPartner: 9_801, expectedValueDate: "2026-03-03", bankReference: "BR1", authCode: "A1" },
        T0 + 20_000,
      );
    });
    const nextDay = T0 + 86_400_000;
    await store.write(async (tx) => {
      await tx.fixtures.insertPayoutBatch({
        id: "pob_cli0000000000000001",
        partnerId: "ptn_test",
        day: "2026-03-03",
        amount: 8801,
        status: "paid_out",
        createdAtMs: nextDay,
        updatedAtMs: nextDay,
        reference: null,
      });
      await tx.fixtures.insertRefund({
        id: "rfd_cli0000000000000001",
        paymentCode: "pay_cli0000000000000001",
        partnerId: "ptn_test",
        partnerRefundCode: "R-1",
        method: "credit",
        status: "approved",
        amount: 1000,
        procReturnCode: "00",
        authCode: "RA1",
        errMsg: null,
        bankReference: "RB1",
        payoutBatchId: "pob_cli0000000000000001",
        createdAtMs: nextDay,
        updatedAtMs: nextDay,
      });
      await tx.fixtures.patchPayment("pay_cli0000000000000001", {
        refundedAmount: 1000,
        settledDay: "2026-03-02",
        payoutBatchId: "pob_cli0000000000000001",
      });
    });
  } finally {
    await store.close();
  }
}
