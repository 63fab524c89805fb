import { defineCommand } from "citty";
import { formatIstanbul } from "../../src/domain/checks/istanbul-time";
import {
  DELIVERY_STATUSES,
  listDeliveries,
  resendDelivery,
  sendTestWebhook,
  showDelivery,
  WebhookOperatorError,
  type DeliveryDetail,
} from "../../src/domain/webhooks/service";
import type { DeliveryJson } from "../../src/domain/webhooks/view";
import { LIST_SIZE_DEFAULT, LIST_SIZE_MAX } from "../../src/limits";
import { tailWebhooks, type TailLine } from "../../src/domain/webhooks/tail";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, table, withStore } from "../context";
import { escapeControls } from "../escape";

// The commands only write the outbox; the running server's sweep picks queued rows up within
// seconds (or its next start does), so these are safe while it runs (docs/operating.md, The operator CLI).
const QUEUED_NOTE = "queued; the server sends it within seconds (or when it next starts)";

const when = (iso: string | null): string => (iso === null ? "-" : formatIstanbul(Date.parse(iso)));

/** Domain refusals become one clear line and exit 1. */
async function operator<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WebhookOperatorError) throw new CliError(error.message);
    throw error;
  }
}

const toRow = (d: DeliveryJson) => ({
  id: d.id,
  partner: d.partnerId,
  type: d.type,
  status: d.status,
  attempts: d.attempts,
  next: d.status === "pending" && d.nextAttemptAt === null ? "in flight" : when(d.nextAttemptAt),
  created: when(d.createdAt),
});

function describeDelivery(d: DeliveryDetail): string {
  const head = [
    `${d.id}  ${d.type}  ${d.status}`,
    `partner ${d.partnerId}; occurred ${when(d.occurredAt)}; next attempt ${toRow(d).next}`,
    `body ${d.body}`,
  ];
  const attempts = d.history.map((a) => ({
    n: a.n,
    started: when(a.startedAt),
    outcome: a.outcome,
    http: a.httpStatus,
    latency: a.latencyMs === null ? null : `${a.latencyMs} ms`,
    error: a.error,
  }));
  return [...head, "", table(attempts)].join("\n");
}

const list = defineCommand({
  meta: {
    name: "list",
    description: "List webhook deliveries, newest first.\n\nExample: kasa webhooks list --partner ptn_demo --status failed",
  },
  args: {
    partner: { type: "string", description: "only this partner's deliveries" },
    status: { type: "string", description: `only this status (${DELIVERY_STATUSES.join(", ")})` },
    limit: { type: "string", description: `at most this many (default ${LIST_SIZE_DEFAULT}, max ${LIST_SIZE_MAX})` },
    ...commonArgs,
  },
  run: ({ args }) =>
    withStore(args, ({ store }) =>
      operator(async () => {
        const limit = args.limit === undefined ? null : Number(args.limit);
        const rows = await listDeliveries(store.q, { partnerId: args.partner ?? null, status: args.status ?? null, limit });
        output(args, rows, () => table(rows.map(toRow)));
      }),
    ),
});

const show = defineCommand({
  meta: { name: "show", description: "Show one delivery with every attempt.\n\nExample: kasa webhooks show evt_01jd0000000000000000" },
  args: { id: { type: "positional", description: "delivery id (evt_…)", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, ({ store }) =>
      operator(async () => {
        const detail = await showDelivery(store.q, requireArg(args.id, "id"));
        output(args, detail, () => describeDelivery(detail));
      }),
    ),
});

const resend = defineCommand({
  meta: {
    name: "resend",
    description:
      "Send a delivered, failed or dropped delivery again (same id and body; a new retry cycle).\n\nExample: kasa webhooks resend evt_01jd0000000000000000",
  },
  args: { id: { type: "positional", description: "delivery id (evt_…)", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, (ctx) =>
      operator(async () => {
        const detail = await resendDelivery(ctx, requireArg(args.id, "id"));
        output(args, detail, () => `${detail.id} ${QUEUED_NOTE}`);
      }),
    ),
});

const test = defineCommand({
  meta: { name: "test", description: "Queue a webhook.test delivery for a partner.\n\nExample: kasa webhooks test --partner ptn_demo" },
  args: { partner: { type: "string", description: "partner id", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, (ctx) =>
      operator(async () => {
        const detail = await sendTestWebhook(ctx, requireArg(args.partner, "partner"));
        output(args, detail, () => `webhook.test ${detail.id} ${QUEUED_NOTE}`);
      }),
    ),
});

const describeTailLine = (l: TailLine): string =>
  l.kind === "delivery"
    ? `${when(l.createdAt)}  ${l.id}  ${l.partnerId}  ${l.type}  queued`
    : `${when(l.startedAt)}  ${l.deliveryId}  ${l.partnerId}  ${l.type}  attempt ${l.n}: ${l.outcome}` +
      `${l.httpStatus === null ? "" : ` HTTP ${l.httpStatus}`}${l.latencyMs === null ? "" : ` in ${l.latencyMs} ms`}${l.error ? ` (${l.error})` : ""}`;

const tail = defineCommand({
  meta: {
    name: "tail",
    description:
      "Follow new deliveries and their attempts as the running server makes them (Ctrl-C stops).\n\nExample: kasa webhooks tail --partner ptn_demo --db kasa-sandbox.db",
  },
  args: { partner: { type: "string", description: "only this partner's webhooks" }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once("SIGINT", onSignal);
      process.once("SIGTERM", onSignal);
      try {
        await tailWebhooks(store.q, {
          partnerId: args.partner ?? null,
          signal: stop.signal,
          // NDJSON with --json; otherwise one line each, partner text escaped (docs/decisions.md, Hardening).
          emit: (line) => process.stdout.write(`${args.json ? JSON.stringify(line) : escapeControls(describeTailLine(line))}\n`),
        });
      } finally {
        process.off("SIGINT", onSignal);
        process.off("SIGTERM", onSignal);
      }
    }),
});

export const webhooksCommand = defineCommand({
  meta: {
    name: "webhooks",
    description: "Inspect, resend and follow webhook deliveries.\n\nExample: kasa webhooks list --status failed",
  },
  subCommands: { list, show, resend, test, tail },
});
