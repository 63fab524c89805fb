import { defineCommand } from "citty";
import { toIso } from "../../src/iso-time";
import { LINK_STATUSES } from "../../src/domain/payment-links/machine";
import { toLinkJson } from "../../src/domain/payment-links/view";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, table, withStore } from "../context";
import { optional } from "../flags";
import { defineListCommand } from "../list-command";
import { details, istanbulOrDash, section, tryOrDash } from "../format";
import { toPaymentSummaryJson, toPaymentTableRow } from "./payments";
import type { LinkRow, LinkSummaryRow } from "../../src/store/rows";
import type { PaymentSummaryRow } from "../../src/store/rows-money";

// `kasa links list|show` (docs/operating.md, The operator CLI): read-only. The CLI does not know the address the server
// is reached at, so `url` is the path `/l/<token>` unless `--base-url` is given.

export function toLinkSummaryJson(l: LinkSummaryRow) {
  return {
    id: l.id,
    partnerId: l.partnerId,
    partnerReference: l.partnerReference,
    terminalId: l.terminalId,
    status: l.status,
    amount: l.amount,
    customerCommissionShareBps: l.shareBps,
    description: l.description,
    expiresAt: toIso(l.expiresAtMs),
    createdAt: toIso(l.createdAtMs),
  };
}

const toLinkTableRow = (l: LinkSummaryRow) => ({
  link: l.id,
  partner: l.partnerId,
  ref: l.partnerReference,
  terminal: l.terminalId,
  status: l.status,
  amount: tryOrDash(l.amount),
  shareBps: l.shareBps,
  created: istanbulOrDash(l.createdAtMs),
  expires: istanbulOrDash(l.expiresAtMs),
});

/** docs/contract.md#the-link-record's record, plus the owner, the terminal and the payments made through it. */
function toLinkDetailJson(l: LinkRow, baseUrl: string, payments: PaymentSummaryRow[]) {
  return { ...toLinkJson(l, baseUrl), partnerId: l.partnerId, terminalId: l.terminalId, payments: payments.map(toPaymentSummaryJson) };
}

function describeLink(d: ReturnType<typeof toLinkDetailJson>, l: LinkRow, payments: PaymentSummaryRow[]): string {
  return [
    details([
      ["link", d.id],
      ["partner", d.partnerId],
      ["reference", d.partnerReference],
      ["terminal", d.terminalId],
      ["status", d.status],
      ["amount", tryOrDash(d.amount)],
      ["customer share bps", d.customerCommissionShareBps],
      ["description", d.description],
      ["url", d.url],
      ["redirect url", d.redirectUrl],
      ["allowed counts", d.allowedInstallmentCounts],
      ["payer", d.payerName],
      ["created", istanbulOrDash(l.createdAtMs)],
      ["first opened", istanbulOrDash(l.firstOpenedAtMs)],
      ["last opened", istanbulOrDash(l.lastOpenedAtMs)],
      ["expires", istanbulOrDash(l.expiresAtMs)],
    ]),
    section("items", table((d.items ?? []).map((i) => ({ name: i.name, note: i.note, amount: tryOrDash(i.amount) })))),
    section("payments", table(payments.map(toPaymentTableRow))),
  ].join("\n");
}

const list = defineListCommand({
  plural: "payment links",
  order: "newest first",
  example: "kasa links list --partner ptn_demo --status pending",
  statuses: LINK_STATUSES,
  query: async (store, filter) => await store.q.operator.links(filter),
  toJson: toLinkSummaryJson,
  toTableRow: toLinkTableRow,
});

const show = defineCommand({
  meta: {
    name: "show",
    description:
      "Show one payment link with its payments.\n\nExample: kasa links show pl_01jd0000000000000000 --base-url https://pay.example",
  },
  args: {
    id: { type: "positional", description: "link id (pl_…)", required: true },
    "base-url": { type: "string", description: "the server's public base URL, to print the full link url", valueHint: "URL" },
    ...commonArgs,
  },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const l = await store.q.links.get(requireArg(args.id, "id"));
      if (!l) throw new CliError(`unknown payment link ${args.id}`);
      const payments = await store.q.operator.paymentsOfLink(l.id);
      const detail = toLinkDetailJson(l, (optional(args["base-url"]) ?? "").replace(/\/+$/, ""), payments);
      output(args, detail, () => describeLink(detail, l, payments));
    }),
});

export const linksCommand = defineCommand({
  meta: { name: "links", description: "Inspect payment links.\n\nExample: kasa links list --status pending" },
  subCommands: { list, show },
});
