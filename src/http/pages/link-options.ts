import type { H3Event } from "h3";
import * as v from "valibot";
import type { Deps } from "../../deps";
import { binField } from "../../domain/installments/schema";
import { toInstallmentOptionsJson } from "../../domain/installments/view";
import { currentLink } from "../../domain/link-checkout/open";
import { quoteLinkOptions } from "../../domain/link-checkout/options";
import { cancelRefusalOf } from "../../domain/payment-links/machine";
import { fail, isApiError } from "../../errors";
import { errorResponse, jsonResponse } from "../envelope";
import { parseWith, readJsonBody } from "../read";

// POST /l/{token}/options (docs/checkout.md, Payment link pages; docs/decisions.md, Readings of the contract): the live installment table's source. JSON `{bin}` in,
// docs/contract.md#options-for-a-card's answer out for the link's terminal, base amount and share, restricted to its
// allowedInstallmentCounts; errors in the API's envelope.

/** docs/contract.md#options-for-a-card's `bin` rule; nothing else may be sent (the link fixes terminal, amount, share). */
const linkOptionsBody = v.strictObject({ bin: binField });

/**
 * Check order, as 4.8's pipeline with the token in the key's place: the buyer's `pages.ip` budget
 * (429, pages-budget.ts; docs/decisions.md, Hardening: never the partner's `installments.partner`) -> unknown token
 * (404 payment_link_not_found) -> body (400) -> a link in a terminal state (409, the codes a
 * DELETE of it would get, 3.1) -> the quote (403 terminal_not_allowed as 4.8). A link busy in
 * another tab still answers: its options are unchanged and the pay step refuses the attempt.
 */
export async function postLinkOptions(deps: Deps, event: H3Event, token: string, traceId: string): Promise<Response> {
  try {
    const link = (await currentLink(deps, token)) ?? fail("payment_link_not_found");
    const body = parseWith(linkOptionsBody, await readJsonBody(event.req));
    const refusal = cancelRefusalOf(link.status);
    if (refusal !== null) fail(refusal);
    return jsonResponse(200, toInstallmentOptionsJson(await quoteLinkOptions(deps.store.q, link, body.bin)), traceId);
  } catch (error) {
    if (!isApiError(error)) throw error;
    return errorResponse(error, traceId);
  }
}
