import { fail } from "../../errors";
import type { Repos } from "../../store/store";
import { checkRedirectUrl } from "../checks/redirect-url";
import { findSensitiveField, type FreeTextField } from "../checks/sensitive-data";
import { toEffectiveInstallments } from "../installments/options";
import { activeMembers, isRouter, unionOfCounts } from "../routing/router-terminal";
import type { CreateLinkInput } from "./schema";
import type { LinkItem, PartnerRow, TerminalRow } from "../../store/rows";

// The business rules of `POST /v1/payment-links` beyond the body's shape (docs/contract.md, Create a link / Items and payerName,
// 7.4 reason 4). Each throws its catalog code; service.ts calls them in the precedence order.

/** docs/contract.md, redirectUrl / Requests and authentication: the checked URL as it will be redirected to, or null when none. */
export function toCheckedRedirectUrl(raw: string | null | undefined, partner: PartnerRow): string | null {
  if (raw === null || raw === undefined) return null;
  const check = checkRedirectUrl(raw, partner.allowedRedirectHosts);
  if (!check.ok) fail("validation_error", `redirectUrl: ${check.reason}`);
  return check.url;
}

/**
 * docs/contract.md, Items and payerName: a free-text field that is, as a whole, a card number or an IBAN is refused.
 * The order of the fields fixes which path the message names: items in order, name before note,
 * then payerName. `description` is not in 4.1.2's list and is not checked.
 */
export function assertNoSensitiveData(input: CreateLinkInput): void {
  const fields: FreeTextField[] = [];
  for (const [i, item] of (input.items ?? []).entries()) {
    fields.push({ path: `items[${i}].name`, value: item.name }, { path: `items[${i}].note`, value: item.note });
  }
  fields.push({ path: "payerName", value: input.payerName });
  const path = findSensitiveField(fields);
  if (path !== null) fail("sensitive_data_not_allowed", `${path}: must not be a card number or IBAN`);
}

/**
 * The counts a link of this terminal may allow: its effective set, or a router's union of its
 * active members' sets (docs/routing.md, Before the card).
 */
export async function effectiveCounts(q: Repos, terminal: TerminalRow, partner: PartnerRow): Promise<number[]> {
  if (!isRouter(terminal)) return toEffectiveInstallments(terminal.installments, partner.installmentCap);
  return unionOfCounts(await activeMembers(q, terminal, partner));
}

/** docs/contract.md, Create a link: the terminal must belong to the caller and be active, else 403. */
export async function usableTerminal(q: Repos, partnerId: string, terminalId: string): Promise<TerminalRow> {
  const terminal = await q.catalog.terminal(terminalId);
  if (!terminal || terminal.partnerId !== partnerId || !terminal.active) {
    fail("terminal_not_allowed", "terminalId: must be an active terminal of this account");
  }
  return terminal;
}

/**
 * docs/contract.md#create-a-link and docs/contract.md#why-an-installment-count-is-refused reason 4: a supplied list must be non-empty and inside the terminal's
 * effective set (docs/seed.md, Partners, terminals and connections: its set capped by the partner's installmentCap). The echo is sorted
 * ascending and de-duplicated; null or absent means no restriction and stays null.
 */
export function toAllowedCounts(requested: readonly number[] | null | undefined, effective: readonly number[]): number[] | null {
  if (requested === null || requested === undefined) return null;
  if (requested.length === 0) fail("installment_not_allowed", "allowedInstallmentCounts: must not be empty");
  const outside = requested.find((count) => !effective.includes(count));
  if (outside !== undefined) {
    fail(
      "installment_not_allowed",
      `allowedInstallmentCounts: ${outside} is not offered at this terminal (offered: ${effective.join(", ")})`,
    );
  }
  return [...new Set(requested)].sort((a, b) => a - b);
}

/** docs/contract.md, Items and payerName: the item amounts sum to `amount` exactly; `note` defaults to null; order kept. */
export function toLinkItems(items: CreateLinkInput["items"], amount: number): LinkItem[] | null {
  if (items === null || items === undefined) return null;
  // 50 safe integers can sum past 2^53, where doubles round; BigInt keeps the comparison exact,
  // so a rounded sum can never land on `amount`.
  const sum = items.reduce((total, item) => total + BigInt(item.amount), 0n);
  if (sum !== BigInt(amount)) {
    fail("payment_link_items_amount_mismatch", `items: amounts sum to ${sum}, amount is ${amount}`);
  }
  return items.map((item) => ({ name: item.name, note: item.note ?? null, amount: item.amount }));
}
