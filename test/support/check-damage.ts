import { runCommand } from "citty";
import { consola } from "consola";
import { vi } from "vitest";
import { checkCommand } from "../../cli/commands/maintenance";
import type { Unit } from "../../src/store/store";

// Product 19 `kasa check`: how its tests run it and the damage they plant in the CLI tests' money
// database (test/cli/cli-run.ts moneyDb), shared by the SQLite tests and the PostgreSQL ones
// (product 22: the same damage must give the same lines on both).

/** `kasa check --db …` in human form: the lines it printed and whether it failed (exit 1). */
export async function check(db: string): Promise<{ lines: string[]; failed: boolean }> {
  const lines: string[] = [];
  const log = vi.spyOn(consola, "log").mockImplementation((...a: unknown[]) => void lines.push(...a.map(String).join(" ").split("\n")));
  try {
    await runCommand(checkCommand, { rawArgs: ["--db", db] });
    return { lines, failed: false };
  } catch {
    return { lines, failed: true };
  } finally {
    log.mockRestore();
  }
}

export const PAY = "pay_cli0000000000000001";
export const REFUND = "rfd_cli0000000000000001";

/** An outbox row about payment `subject`; `body` replaces the well-formed body naming the row's own id. */
export const delivery = (id: string, type: string, subject: string, body?: string) => ({
  id,
  partnerId: "ptn_test",
  type,
  body: body ?? `{"id":"${id}","type":"${type}","occurredAt":"2026-03-02T09:00:00.000Z","paymentCode":"${subject}"}`,
  occurredAtMs: 1,
});

/** A unit that writes these outbox rows. */
export const deliveries =
  (...rows: ReturnType<typeof delivery>[]): Unit<void> =>
  async (tx) => {
    for (const d of rows) await tx.webhooks.insert(d);
  };

/** Damage each store can hold, by name, with the one line `kasa check` prints for it. */
export const PLANTED_DAMAGE = [
  [
    "money not conserved (commission + net != amount)",
    async (tx) => await tx.fixtures.patchPayment(PAY, { netToPartner: 9000 }),
    /^money: payment pay_cli0000000000000001 amount 10000 != commission 199 \+ net 9000$/,
  ],
  [
    "refunded amount disagrees with the approved refunds",
    async (tx) => await tx.fixtures.patchPayment(PAY, { refundedAmount: 0 }),
    /^money: payment pay_cli0000000000000001 records 0 refunded/,
  ],
  [
    "refunds above the capture",
    async (tx) => {
      await tx.fixtures.patchRefund(REFUND, { amount: 20000 });
      await tx.fixtures.patchPayment(PAY, { refundedAmount: 20000 });
    },
    /^refunds: payment pay_cli0000000000000001 has 20000 refunded against a capture of 10000$/,
  ],
  [
    "refund of a payment never captured",
    async (tx) => {
      await tx.fixtures.patchRefund(REFUND, { paymentCode: "pay_cli0000000000000002", amount: 0 });
      await tx.fixtures.patchPayment(PAY, { refundedAmount: 0 });
      await tx.refunds.insertPending({
        id: "rfd_x",
        paymentCode: "pay_cli0000000000000002",
        partnerId: "ptn_test",
        partnerRefundCode: "R-X",
        method: "void",
        amount: 5,
        createdAtMs: 1,
      });
    },
    /^refunds: payment pay_cli0000000000000002 has 5 refunded against a capture of 0$/,
  ],
  [
    "two outbox rows for one event",
    deliveries(delivery("whd_a", "payment.captured", PAY), delivery("whd_b", "payment.captured", PAY)),
    /^outbox: 2 rows for one payment.captured event of pay_cli0000000000000001$/,
  ],
  [
    "an outbox row carrying another event's id",
    deliveries(delivery("whd_a", "payment.captured", PAY, '{"id":"whd_z","type":"payment.captured","paymentCode":"x"}')),
    /^outbox: delivery whd_a carries another event's id$/,
  ],
] satisfies [string, Unit<unknown>, RegExp][];

/** Outbox rows a refund or test event may repeat: not duplicates. */
export const REPEATED_EVENTS = deliveries(
  delivery("whd_a", "refund.approved", PAY),
  delivery("whd_b", "refund.approved", PAY),
  delivery("whd_c", "webhook.test", PAY),
  delivery("whd_d", "webhook.test", PAY),
);
