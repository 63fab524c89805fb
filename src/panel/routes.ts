import type { Deps } from "../deps";
import type { PageRoute } from "../http/page";
import { accountPages } from "./account";
import { adminPages } from "./admin";
import { linkPages } from "./links";
import { loginPages } from "./login";
import { newPaymentPages, newPaymentResultPage } from "./new-payment";
import { paymentPages } from "./payments";
import { paymentsCsvPage } from "./payments-csv";
import { payoutPages } from "./payouts";
import { toPageRoute } from "./route";
import { webhookPages } from "./webhooks";

/** docs/panel.md: the merchant panel under /panel/, every row on the page pipeline with its auth column. */
export function panelRoutes(deps: Deps): PageRoute[] {
  const pages = [
    ...accountPages(deps),
    ...paymentPages(deps),
    paymentsCsvPage(deps),
    ...newPaymentPages(deps),
    ...linkPages(deps),
    ...payoutPages(deps),
    ...webhookPages(deps),
    ...adminPages(deps),
  ];
  return [...loginPages(deps), newPaymentResultPage(deps), ...pages.map(toPageRoute)];
}
