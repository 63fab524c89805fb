import { addUser } from "../../src/domain/users/service";
import type { Deps } from "../../src/deps";
import { Sensitive } from "../../src/sensitive";
import type { Store } from "../../src/store/store";
import type { AttemptStatus } from "../../src/store/rows-money";
import { istanbulDate } from "../../src/domain/checks/istanbul-time";

// Issue 38's bench row: a partner with a year of payments, each with its card attempt, as a
// merchant's would be (mostly captured; declines, failed 3D steps and abandoned ones among them),
// over two terminals, and a panel user to open the dashboard with.

export const PANEL_EMAIL = "bench@shop.example";
export const PANEL_PASSWORD = "bench-panel-password";
const DAY_MS = 86_400_000;
const YEAR_MS = 365 * DAY_MS;
const ROWS_PER_UNIT = 5_000;

type Ending = { attempt: AttemptStatus; payment: "captured" | "failed" | "expired" };

/** One payment in twenty each declined, failed at 3D and abandoned; the rest captured. */
const endingOf = (i: number): Ending =>
  i % 20 === 17
    ? { attempt: "declined", payment: "failed" }
    : i % 20 === 18
      ? { attempt: "failed", payment: "failed" }
      : i % 20 === 19
        ? { attempt: "failed", payment: "expired" }
        : { attempt: "captured", payment: "captured" };

export async function seedPanelYear(store: Store, nowMs: number, count: number, partnerId: string, terminals: readonly string[]) {
  const pad = (i: number) => String(i).padStart(12, "0");
  for (let start = 0; start < count; start += ROWS_PER_UNIT) {
    await store.write(async (tx) => {
      for (let i = start; i < Math.min(count, start + ROWS_PER_UNIT); i += 1) {
        const createdAtMs = Math.min(nowMs - 60_000, nowMs - YEAR_MS + Math.floor((i / count) * YEAR_MS));
        const code = `pay_panel${pad(i)}`;
        const terminalId = terminals[i % terminals.length]!;
        const connectionId = `vpos-${(i % terminals.length) + 1}`;
        await tx.payments.insert({
          code,
          partnerId,
          terminalId,
          connectionId,
          partnerTxCode: `year-${i}`,
          channel: "api",
          linkId: null,
          amount: 5_000 + (i % 50) * 1_000,
          principal: 5_000 + (i % 50) * 1_000,
          currency: "TRY",
          installment: 1,
          description: null,
          returnUrl: "http://127.0.0.1:9/return",
          paymentRef: `ref_panel${pad(i)}`,
          expiresAtMs: createdAtMs + 1_800_000,
          createdAtMs,
        });
        const end = endingOf(i);
        await tx.attempts.insert({
          id: `att_panel${pad(i)}`,
          paymentCode: code,
          status: end.attempt,
          counted: end.attempt === "declined",
          createdAtMs: createdAtMs + 1_000,
          terminalId,
          connectionId,
          route: null,
        });
        const atMs = createdAtMs + 60_000;
        if (end.payment === "captured") {
          const facts = {
            commissionAmount: 199,
            netToPartner: 4_801 + (i % 50) * 1_000,
            expectedValueDate: istanbulDate(createdAtMs + DAY_MS),
            bankReference: `b${i}`,
            authCode: "000000",
          };
          await tx.payments.markCaptured(code, ["initiated"], facts, atMs);
        } else if (end.payment === "failed") await tx.payments.markFailed(code, ["initiated"], atMs);
        else await tx.payments.markExpired(code, ["initiated"], createdAtMs + 1_800_000, createdAtMs + 1_800_000);
      }
    });
  }
}

export async function seedPanelUser(deps: Deps, partnerId: string): Promise<void> {
  await addUser(deps, { partnerId, email: PANEL_EMAIL, role: "viewer", password: new Sensitive(PANEL_PASSWORD) });
}
