import { readSearch, type SearchItem } from "./answers";
import type { PayflexConfig } from "./config";
import { searchXml } from "./requests";
import { postForm, prmstrBody, type PayflexTransport } from "./wire";

// The Search query by an attempt id (as TransactionId and OrderId): how kasa learns what became of
// a Sale, Cancel or Refund whose answer was lost.

/** The items found; null while the bank cannot say (no readable answer, or the query refused). */
export async function search(config: PayflexConfig, transport: PayflexTransport, id: string): Promise<SearchItem[] | null> {
  const answer = readSearch(await postForm(config.searchUrl, prmstrBody(searchXml(config, id, id)), config.timeoutMs, transport));
  return answer?.ok ? answer.items : null;
}

/** The attempt's Sale among the items. */
export const saleOf = (items: readonly SearchItem[], id: string): SearchItem | undefined =>
  items.find((i) => i.transactionType === "Sale" && (i.transactionId === id || i.orderId === id));
