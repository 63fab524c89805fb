import { fail } from "../../errors";
import { invariant } from "../../invariant";
import type { Repos } from "../../store/store";
import { quoteOptions, type OptionsQuote } from "../installments/service";
import type { InstallmentOptionJson } from "../installments/types";
import type { LinkRow, PartnerRow } from "../../store/rows";

// The installment options of a link (docs/checkout.md, Payment link pages; docs/decisions.md, Readings of the contract): docs/contract.md#options-for-a-card for the link's terminal, its
// base amount and its customerCommissionShareBps, restricted to its allowedInstallmentCounts.

export async function partnerOf(q: Repos, link: LinkRow): Promise<PartnerRow> {
  const partner = await q.partners.get(link.partnerId);
  invariant(partner, `link ${link.id} refers to a missing partner`);
  return partner;
}

/**
 * The options the link's page offers for a BIN. The link passes its own share explicitly (0
 * unless the partner set one), so the terminal's 4.8 default never applies. Throws 403
 * terminal_not_allowed like 4.8 (terminal deactivated since, or a card family it refuses).
 */
export async function quoteLinkOptions(q: Repos, link: LinkRow, bin: string): Promise<OptionsQuote> {
  const quote = await quoteOptions(q, await partnerOf(q, link), {
    terminalId: link.terminalId,
    bin,
    baseAmount: link.amount,
    shareBps: link.shareBps,
  });
  const allowed = link.allowedCounts;
  if (allowed === null) return quote;
  return { ...quote, options: quote.options.filter((option) => allowed.includes(option.installmentCount)) };
}

/**
 * The option the buyer chose, as it stands now for this card. A card the link cannot be paid
 * with at all (an empty list: a foreign card on a connection that refuses them, say) is the
 * generic card-type refusal; a count not on the list is installment_not_allowed.
 */
export async function chooseLinkOption(q: Repos, link: LinkRow, bin: string, installment: number): Promise<InstallmentOptionJson> {
  const { options } = await quoteLinkOptions(q, link, bin);
  if (options.length === 0) fail("virtual_pos_card_type_not_supported");
  const option = options.find((o) => o.installmentCount === installment);
  if (!option) fail("installment_not_allowed", "installment: not offered for this card on this link");
  return option;
}
