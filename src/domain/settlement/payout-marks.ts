import type { Deps } from "../../deps";
import { fail } from "../../errors";
import { PAYOUT_REFERENCE_MAX_CHARS } from "../../limits";
import type { Repos } from "../../store/store";
import type { Timers } from "../../timers";
import { toLira } from "../../lira";
import { awaitsBankPayout, markPayout, type PayoutMark } from "./payouts";
import type { PayoutBatchRow, PayoutStatus } from "../../store/rows-money";

// Payouts an operator transfers (docs/operating.md, "Real banks: connections and payouts"): a
// payout is not an acquiring call, so a day end's batch with a real bank's connection stays
// pending. The operator lists what to transfer, transfers it, and marks each batch paid or failed,
// which sends payout.paid_out or payout.failed as the simulated bank's own answer would.

/** One line of the transfer list: who gets how much, on which account. */
export type PayoutTransfer = {
  payoutBatchId: string;
  partnerId: string;
  partnerName: string | null;
  payoutAccount: string | null;
  day: string;
  amountKurus: number;
  /** The same amount as plain lira ("88.01"), for a bank's transfer form or a spreadsheet. */
  amountTry: string;
};

/** The pending batches no bank pays, oldest first as the store lists them. */
export async function payoutsToTransfer(q: Repos): Promise<PayoutTransfer[]> {
  const transfers: PayoutTransfer[] = [];
  for (const b of await q.settlement.pendingBatches()) {
    if (await awaitsBankPayout(q, b.id)) continue;
    const partner = await q.partners.get(b.partnerId);
    transfers.push({
      payoutBatchId: b.id,
      partnerId: b.partnerId,
      partnerName: partner?.name ?? null,
      payoutAccount: partner?.payoutAccount ?? null,
      day: b.day,
      amountKurus: b.amount,
      amountTry: toLira(b.amount),
    });
  }
  return transfers;
}

/**
 * What marking needs, and no more. `timers` tells a running service that the webhook is due; a
 * process without timers (the operator's CLI) leaves the queued row to the server's outbox sweep.
 */
export type PayoutMarkDeps = Pick<Deps, "store" | "clock" | "ids" | "log"> & { timers?: Pick<Timers, "schedule"> };

/**
 * `recorded`: the answer is on the batch (`marked` false only when another writer settled it
 * first). The refusals are the operator's to fix: a reference that cannot be kept, or a batch that
 * is no longer pending.
 */
export type PayoutMarkOutcome =
  | { ok: true; batch: PayoutBatchRow; marked: boolean }
  | { ok: false; refusal: "reference_invalid" }
  | { ok: false; refusal: "not_pending"; status: PayoutStatus };

const CONTROL = /\p{Cc}/u;

/** The operator's answer for one pending batch, in one unit with its webhook; an unknown batch is 404. */
export async function markPayoutBatch(deps: PayoutMarkDeps, batchId: string, mark: PayoutMark): Promise<PayoutMarkOutcome> {
  const { reference } = mark;
  if (reference !== null && (reference.length > PAYOUT_REFERENCE_MAX_CHARS || CONTROL.test(reference))) {
    return { ok: false, refusal: "reference_invalid" };
  }
  const outbox = { ids: deps.ids, log: deps.log, timers: deps.timers ?? { schedule: () => {} } };
  return await deps.store.write(async (tx): Promise<PayoutMarkOutcome> => {
    const batch = await tx.settlement.batch(batchId);
    if (!batch) fail("not_found", `unknown payout batch ${batchId}`);
    if (batch.status !== "pending") return { ok: false, refusal: "not_pending", status: batch.status };
    const marked = await markPayout(tx, outbox, batchId, mark, deps.clock.nowMs());
    return { ok: true, batch: (await tx.settlement.batch(batchId)) ?? batch, marked };
  });
}
