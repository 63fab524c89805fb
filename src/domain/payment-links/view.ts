import { toIso } from "../../iso-time";
import { kept } from "../../kept";
import type { LinkRow } from "../../store/rows";

/**
 * The buyer-facing address of a link (docs/contract.md#the-link-record `url`); the token is its secret part.
 * Kept per token for the server's one base URL, as toIso keeps its texts: a kept string is
 * flattened once, not by every answer that carries it (issue 37).
 */
export function toLinkUrl(baseUrl: string, token: string): string {
  if (urls === null || urls.baseUrl !== baseUrl) urls = { baseUrl, of: kept(4096, (t: string) => `${baseUrl}/l/${t}`) };
  return urls.of(token);
}
let urls: { baseUrl: string; of: (token: string) => string } | null = null;

/**
 * docs/contract.md#the-link-record wire shape, every field present and nulls explicit, in the table's order.
 * `terminalId` is not a 2.1 field and stays out of the response.
 */
export function toLinkJson(link: LinkRow, baseUrl: string) {
  return {
    id: link.id,
    token: link.token,
    url: toLinkUrl(baseUrl, link.token),
    partnerReference: link.partnerReference,
    status: link.status,
    amount: link.amount,
    customerCommissionShareBps: link.shareBps,
    description: link.description,
    redirectUrl: link.redirectUrl,
    firstOpenedAt: link.firstOpenedAtMs === null ? null : toIso(link.firstOpenedAtMs),
    lastOpenedAt: link.lastOpenedAtMs === null ? null : toIso(link.lastOpenedAtMs),
    expiresAt: toIso(link.expiresAtMs),
    createdAt: toIso(link.createdAtMs),
    updatedAt: toIso(link.updatedAtMs),
    allowedInstallmentCounts: link.allowedCounts === null ? null : [...link.allowedCounts],
    items: link.items === null ? null : link.items.map((i) => ({ name: i.name, note: i.note, amount: i.amount })),
    payerName: link.payerName,
  };
}

export type LinkJson = ReturnType<typeof toLinkJson>;

/** docs/contract.md#list-links envelope; its `items` are links, not a link's display items. */
export function toLinkPageJson(links: readonly LinkRow[], baseUrl: string, paging: { page: number; size: number; hasMore: boolean }) {
  return { items: links.map((l) => toLinkJson(l, baseUrl)), page: paging.page, size: paging.size, hasMore: paging.hasMore };
}
