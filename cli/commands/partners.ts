import { readFileSync } from "node:fs";
import { defineCommand } from "citty";
import { acceptanceOf } from "../../src/domain/acceptance/service";
import { toAcceptanceJson } from "../../src/domain/acceptance/view";
import { toIso } from "../../src/iso-time";
import { editPartner, type PartnerPatch } from "../../src/domain/partners/partner-edits";
import type { Repos } from "../../src/store/store";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, table, withStore } from "../context";
import { NONE, orNone, parseDecimal, parseInteger, parseList, withFlagNames } from "../flags";
import { details, section, tryOrDash } from "../format";
import type { PartnerRow } from "../../src/store/rows";

// `kasa partners list|show|set`. `set` reads the flags and hands the change to
// src/domain/partners/partner-edits.ts, which re-checks the whole partner with the seed file's
// own schema, so the CLI can never store what a seed file could not.

const STATUSES = ["active", "suspended", "closed"];

/**
 * The webhook secret signs every delivery; listings show only enough to tell two secrets apart.
 * Short secrets (the seed allows 8 characters) show nothing, as four would be half of one.
 */
export function secretHint(secret: string | null): string | null {
  if (secret === null) return null;
  return secret.length >= 16 ? `…${secret.slice(-4)}` : "(set)";
}

/** Operator view of a partner: every setting, camelCase, amounts in kuruş, the secret as a hint. */
export function toPartnerJson(p: PartnerRow) {
  return {
    id: p.id,
    name: p.name,
    status: p.status,
    allowedRedirectHosts: p.allowedRedirectHosts,
    amountLimits: { min: p.amountMin, max: p.amountMax },
    cardAttemptLimit: p.cardAttemptLimit,
    installmentCap: p.installmentCap,
    webhook: { url: p.webhookUrl, secretHint: secretHint(p.webhookSecret) },
    rateLimitMultiplier: p.rateLimitMultiplier,
    payoutAccount: p.payoutAccount,
    createdAt: toIso(p.createdAtMs),
  };
}

type PartnerJson = ReturnType<typeof toPartnerJson>;

async function toPartnerDetail(q: Repos, p: PartnerRow, nowMs: number) {
  return {
    ...toPartnerJson(p),
    acceptance: toAcceptanceJson(await acceptanceOf(q, p, nowMs), nowMs),
    terminals: (await q.catalog.terminals(p.id)).map((t) => t.id),
  };
}

function describePartner(d: Awaited<ReturnType<typeof toPartnerDetail>>): string {
  const holds = d.acceptance.holds.map((h) => `${h.reason}${h.effective ? "" : " (not yet effective)"}`);
  return [
    details([
      ["id", d.id],
      ["name", d.name],
      ["status", d.status],
      ["accepting payments", d.acceptance.acceptingPayments ? "yes" : "no"],
      ["holds", holds],
      ["amount min", tryOrDash(d.amountLimits.min)],
      ["amount max", tryOrDash(d.amountLimits.max)],
      ["card attempt limit", d.cardAttemptLimit],
      ["installment cap", d.installmentCap],
      ["allowed hosts", d.allowedRedirectHosts],
      ["webhook url", d.webhook.url],
      ["webhook secret", d.webhook.secretHint],
      ["rate multiplier", d.rateLimitMultiplier],
      ["payout account", d.payoutAccount],
      ["terminals", d.terminals],
    ]),
    section(
      "pending agreements",
      table(
        (d.acceptance.agreements ?? []).map((a) => ({ code: a.agreementCode, version: a.version, lastDay: a.lastDay, expired: a.expired })),
      ),
    ),
  ].join("\n");
}

const toListRow = (p: PartnerJson, accepting: boolean) => ({
  id: p.id,
  name: p.name,
  status: p.status,
  accepting: accepting ? "yes" : "no",
  min: tryOrDash(p.amountLimits.min),
  max: tryOrDash(p.amountLimits.max),
  webhook: p.webhook.url,
});

const list = defineCommand({
  meta: { name: "list", description: "List partners with their status and limits.\n\nExample: kasa partners list --json" },
  args: { ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store, clock }) => {
      const now = clock.nowMs();
      const rows = await store.q.partners.list();
      const json = rows.map(toPartnerJson);
      const accepting: boolean[] = [];
      for (const p of rows) accepting.push((await acceptanceOf(store.q, p, now)).acceptingPayments);
      output(args, json, () => table(rows.map((_, i) => toListRow(json[i]!, accepting[i]!))));
    }),
});

const show = defineCommand({
  meta: { name: "show", description: "Show one partner: settings, acceptance status, terminals.\n\nExample: kasa partners show ptn_demo" },
  args: { id: { type: "positional", description: "partner id", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store, clock }) => {
      const p = await store.q.partners.get(requireArg(args.id, "id"));
      if (!p) throw new CliError(`unknown partner ${args.id}`);
      const detail = await toPartnerDetail(store.q, p, clock.nowMs());
      output(args, detail, () => describePartner(detail));
    }),
});

/** Flag -> seed-schema path, to name the flag in a validation message. */
const FLAG_OF: Record<string, string> = {
  name: "name",
  status: "status",
  "webhook.url": "webhook-url",
  "webhook.secret": "webhook-secret-file",
  allowedRedirectHosts: "allowed-hosts",
  "amountLimits.min": "amount-min",
  "amountLimits.max": "amount-max",
  cardAttemptLimit: "card-attempt-limit",
  installmentCap: "installment-cap",
  rateLimitMultiplier: "rate-limit-multiplier",
  payoutAccount: "payout-account",
};

/**
 * docs/decisions.md, Hardening: a secret is read from a file or from standard input, never from the command line,
 * where `ps` and shell history would show it. One trailing newline is dropped; `none` as the file
 * name removes the secret.
 */
function readSecret(args: Record<string, unknown>, name: string): string | null | undefined {
  const file = args[`${name}-file`];
  const stdin = args[`${name}-stdin`] === true;
  if (file !== undefined && stdin) throw new CliError(`--${name}-file and --${name}-stdin: give one of them`, 2);
  if (file === NONE) return null;
  if (file === undefined && !stdin) return undefined;
  try {
    return readFileSync(stdin ? 0 : String(file), "utf8").replace(/\r?\n$/, "");
  } catch (error) {
    throw new CliError(
      `--${name}-${stdin ? "stdin" : "file"}: cannot read ${stdin ? "standard input" : String(file)} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
      2,
    );
  }
}

/** Reads every given flag (exit 2 on a value that is not even of the right type). */
function readPatch(args: Record<string, unknown>): PartnerPatch {
  const patch: PartnerPatch = {};
  const given = (flag: string) => args[flag] !== undefined;
  if (given("name")) patch.name = String(args.name);
  if (given("status")) patch.status = args.status as PartnerRow["status"];
  if (given("webhook-url")) patch.webhookUrl = orNone(args["webhook-url"], String);
  if (given("webhook-secret")) {
    throw new CliError(
      "--webhook-secret: secrets are not taken on the command line (ps shows it); use --webhook-secret-file FILE or --webhook-secret-stdin",
      2,
    );
  }
  const secret = readSecret(args, "webhook-secret");
  if (secret !== undefined) patch.webhookSecret = secret;
  if (given("allowed-hosts")) patch.allowedRedirectHosts = orNone(args["allowed-hosts"], (r) => parseList(r, "allowed-hosts"));
  if (given("amount-min")) patch.amountMin = orNone(args["amount-min"], (r) => parseInteger(r, "amount-min"));
  if (given("amount-max")) patch.amountMax = orNone(args["amount-max"], (r) => parseInteger(r, "amount-max"));
  if (given("card-attempt-limit")) patch.cardAttemptLimit = parseInteger(args["card-attempt-limit"], "card-attempt-limit");
  if (given("installment-cap")) patch.installmentCap = orNone(args["installment-cap"], (r) => parseInteger(r, "installment-cap"));
  if (given("rate-limit-multiplier")) patch.rateLimitMultiplier = parseDecimal(args["rate-limit-multiplier"], "rate-limit-multiplier");
  if (given("payout-account")) patch.payoutAccount = orNone(args["payout-account"], String);
  if (Object.keys(patch).length === 0)
    throw new CliError(
      `nothing to set: give at least one of ${Object.values(FLAG_OF)
        .map((f) => `--${f}`)
        .join(", ")}`,
      2,
    );
  return patch;
}

const set = defineCommand({
  meta: {
    name: "set",
    description: `Change a partner's settings (validated like the seed file; "${NONE}" removes an optional one).\n\nExample: kasa partners set ptn_demo --status suspended --amount-max 5000000 --webhook-url https://shop.example/hooks`,
  },
  args: {
    id: { type: "positional", description: "partner id", required: true },
    name: { type: "string", description: "display name" },
    status: { type: "enum", options: STATUSES, description: "active, suspended or closed" },
    "webhook-url": { type: "string", description: `webhook URL (http/https), or ${NONE}`, valueHint: "URL" },
    "webhook-secret-file": {
      type: "string",
      description: `read the webhook signing secret (8-200 chars) from FILE, or ${NONE} to remove it`,
      valueHint: "FILE",
    },
    "webhook-secret-stdin": { type: "boolean", description: "read the webhook signing secret from standard input" },
    "allowed-hosts": { type: "string", description: `allowed redirect hosts, comma-separated, or ${NONE} for no list`, valueHint: "a,b" },
    "amount-min": { type: "string", description: `smallest amount in kuruş, or ${NONE}`, valueHint: "KURUS" },
    "amount-max": { type: "string", description: `largest amount in kuruş, or ${NONE}`, valueHint: "KURUS" },
    "card-attempt-limit": { type: "string", description: "card attempts per payment (1-20)", valueHint: "N" },
    "installment-cap": { type: "string", description: `highest installment count (1-36), or ${NONE}`, valueHint: "N" },
    "rate-limit-multiplier": { type: "string", description: "payment-creation budget multiplier (1-1000)", valueHint: "N" },
    "payout-account": { type: "string", description: `payout account (IBAN), or ${NONE}`, valueHint: "IBAN" },
    ...commonArgs,
  },
  run: ({ args }) => {
    const patch = readPatch(args);
    return withStore(args, async ({ store, clock }) => {
      const id = requireArg(args.id, "id");
      const updated = await withFlagNames(FLAG_OF, () => editPartner({ store }, id, patch));
      const detail = await toPartnerDetail(store.q, updated, clock.nowMs());
      output(args, detail, () => `updated ${id}\n${describePartner(detail)}`);
    });
  },
});

export const partnersCommand = defineCommand({
  meta: {
    name: "partners",
    description: "List, inspect and change partners.\n\nExample: kasa partners set ptn_demo --status suspended",
  },
  subCommands: { list, show, set },
});
