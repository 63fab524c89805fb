import type { PayoutResult } from "../../bank/gateway";
import type { BankModule } from "../../bank/module";
import { BANKS, payingBank } from "../../bank/registry";
import type { Deps } from "../../deps";
import type { Timers } from "../../timers";
import { invariant } from "../../invariant";
import { BANK_RETRY_MS } from "../../limits";
import type { Repos } from "../../store/store";
import { enqueueWebhook } from "../webhooks/outbox";
import type { PayoutBatchRow, PayoutStatus } from "../../store/rows-money";

// Payouts (docs/contract.md, Refunds; docs/decisions.md, Readings of the contract). At each day end, per partner: the settled captures whose value date has
// come (netToPartner each) minus the approved credit refunds not netted yet form one batch. The
// batch is recorded `pending` with its items in the day end's unit; the bank is asked outside it;
// the answer is recorded with its webhook (payout.paid_out / payout.failed, docs/contract.md, Event types).
//
// Decisions where the spec is silent:
// - Nothing due, or refunds at least as large as the captures (amount <= 0): no batch. The items
//   stay unbatched and are carried forward, so a negative balance is netted against later captures.
// - A failed payout (no payout account) releases its items: they are due again at the next day end,
//   which makes a new batch (and, while the account is missing, a new payout.failed).

/** Timer kind that pays a batch left `pending` by a stopped process (or a bank that failed); key = batch id. */
export const PAYOUT_TIMER = "payout";

export const PAYOUT_TRANSITIONS = {
  pay: { from: ["pending"], to: "paid_out" },
  fail: { from: ["pending"], to: "failed" },
} as const satisfies Record<string, { from: readonly PayoutStatus[]; to: PayoutStatus }>;

/**
 * In its own unit, one per partner (docs/decisions.md, Hardening: one partner's failure never blocks another's): the
 * partner's pending batch when a positive amount is due, else null. Sums are exact BigInts; a
 * batch must be a safe integer (the JSON API, the webhook and the bank take numbers), so a larger
 * balance forms no batch: it is logged for an operator and its items stay due.
 */
export async function formBatch(
  tx: Repos,
  deps: Deps,
  partnerId: string,
  runDay: string,
  cutoffMs: number,
  nowMs: number,
): Promise<string | null> {
  const due = await tx.settlement.dueOf(partnerId, runDay, cutoffMs);
  const amount = due.captures - due.refunds;
  if (amount <= 0n) return null;
  if (amount > BigInt(Number.MAX_SAFE_INTEGER)) {
    deps.log.error("payout batch not formed: amount above the largest safe integer", { partnerId, day: runDay, amount: amount.toString() });
    return null;
  }
  const id = deps.ids.payoutBatchId();
  await tx.settlement.createBatch({ id, partnerId, day: runDay, amount: Number(amount), createdAtMs: nowMs });
  const assigned = await tx.settlement.assignDue(id, partnerId, runDay, cutoffMs);
  invariant(assigned === amount, `payout batch ${id}: items sum to ${assigned}, expected ${amount}`);
  return id;
}

/**
 * Pays one pending batch through the bank that pays its own payouts (the simulated bank) and
 * records the answer; answers the batch as it stands. A payout is not an acquiring call, so a
 * batch with anything from another bank's connection stays pending until an operator transfers
 * and marks it (`markPayout`; docs/banks.md, "Payouts").
 */
export async function payBatch(deps: Deps, batchId: string): Promise<PayoutBatchRow | undefined> {
  const batch = await deps.store.q.settlement.batch(batchId);
  if (!batch || batch.status !== "pending") return batch;
  const bank = deps.banks.payoutGateway(await deps.store.q.settlement.banksOfBatch(batchId));
  if (!bank) {
    deps.log.info("payout batch awaits an operator's transfer", {
      payoutBatchId: batchId,
      partnerId: batch.partnerId,
      amount: batch.amount,
    });
    return batch;
  }
  invariant(bank.payout !== undefined, `bank ${bank.bank} pays its payouts but has no payout call`);
  const partner = await deps.store.q.partners.get(batch.partnerId);
  let result: PayoutResult;
  try {
    result = await bank.payout({
      idempotencyKey: batchId,
      partnerId: batch.partnerId,
      amount: batch.amount,
      payoutAccount: partner?.payoutAccount ?? null,
      nowMs: deps.clock.nowMs(),
    });
  } catch (error) {
    deps.log.warn("payout: bank call failed", { payoutBatchId: batchId, error });
    deps.timers.schedule(PAYOUT_TIMER, batchId, deps.clock.nowMs() + BANK_RETRY_MS);
    return batch;
  }
  return deps.store.write((tx) => recordPayout(tx, deps, batch, result, deps.clock.nowMs()));
}

/** What recording a payout answer needs: the outbox (ids, timers) and the log; the CLI has these too. */
export type PayoutDeps = Pick<Deps, "ids" | "log"> & { timers: Pick<Timers, "schedule"> };

/** Only a batch of one bank that pays its own payouts (the simulated bank) is paid by a bank. */
export const awaitsBankPayout = async (q: Repos, batchId: string, banks: readonly BankModule[] = BANKS): Promise<boolean> =>
  payingBank(await q.settlement.banksOfBatch(batchId), banks) !== null;

/** The operator's answer; `reference` is the transfer's (or the failure's) reference, kept on the batch. */
export type PayoutMark = { status: "paid" | "failed"; reference: string | null };

/**
 * `kasa payouts mark-paid|mark-failed` (docs/banks.md): the operator's answer for a pending batch,
 * recorded as the simulated bank's would be (payout.paid_out / payout.failed; a failed batch's
 * items are due again at the next day end). False when the batch is not pending.
 */
export async function markPayout(tx: Repos, deps: PayoutDeps, batchId: string, mark: PayoutMark, nowMs: number): Promise<boolean> {
  const batch = await tx.settlement.batch(batchId);
  if (!batch || batch.status !== "pending") return false;
  const result: PayoutResult =
    mark.status === "paid"
      ? { status: "paid", bankReference: mark.reference ?? "" }
      : { status: "failed", reason: "operator_marked_failed" };
  return (await recordPayout(tx, deps, batch, result, nowMs, mark.reference)).status !== "pending";
}

async function recordPayout(
  tx: Repos,
  deps: PayoutDeps,
  batch: PayoutBatchRow,
  result: PayoutResult,
  nowMs: number,
  reference?: string | null,
): Promise<PayoutBatchRow> {
  const t = result.status === "paid" ? PAYOUT_TRANSITIONS.pay : PAYOUT_TRANSITIONS.fail;
  const kept = reference !== undefined ? reference : result.status === "paid" ? result.bankReference : null;
  if (await tx.settlement.finishBatch(batch.id, t.from, t.to, nowMs, kept)) {
    if (result.status === "failed") {
      await tx.settlement.releaseBatch(batch.id);
      deps.log.warn("payout failed", { payoutBatchId: batch.id, partnerId: batch.partnerId, reason: result.reason });
    }
    const type = result.status === "paid" ? "payout.paid_out" : "payout.failed";
    await enqueueWebhook(tx, deps, batch.partnerId, { type, payoutBatchId: batch.id }, nowMs);
  }
  return (await tx.settlement.batch(batch.id)) ?? batch;
}
