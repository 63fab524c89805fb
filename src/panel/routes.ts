import type { Deps } from "../deps";
import type { PageRoute } from "../http/page";
import { accountPages } from "./account";
import { adminPages } from "./admin";
import { linkPages } from "./links";
import { loginPages } from "./login";
import { newPaymentPages } from "./new-payment";
import { paymentPages } from "./payments";
import { payoutPages } from "./payouts";
import { webhookPages } from "./webhooks";

/** Product 18: the merchant panel under /panel/, every row on the page pipeline with its auth column. */
export function panelRoutes(deps: Deps): PageRoute[] {
  return [...loginPages(deps), ...accountPages(deps), ...paymentPages(deps), ...newPaymentPages(deps), ...linkPages(deps), ...payoutPages(deps), ...webhookPages(deps), ...adminPages(deps)];
}
