import { defineCommand } from "citty";
import { editTerminal, type TerminalPatch } from "../../src/domain/partners/terminal-edits";
import { CliError } from "../cli-error";
import { commonArgs, output, requireArg, table, withStore } from "../context";
import { NONE, optional, orNone, parseInteger, parseList, withFlagNames } from "../flags";
import { details, section, tryOrDash } from "../format";
import type { TerminalRow } from "../../src/store/rows";

// `kasa terminals list|show|set`. `set` reads the flags and hands the change to
// src/domain/partners/terminal-edits.ts, which checks it with the seed schema and writes it.

const ALL = "all";
const BOOL = ["true", "false"];

/** Operator view of a terminal, every field of docs/seed.md, Partners, terminals and connections. */
export function toTerminalJson(t: TerminalRow) {
  return {
    id: t.id,
    partnerId: t.partnerId,
    // A router has no connection of its own: its members do (docs/routing.md).
    connectionId: t.routing === null ? t.connectionId : null,
    active: t.active,
    commissionBasis: t.commissionBasis,
    installments: [...t.installments],
    infrastructure: t.infrastructure,
    directCollection: t.directCollection,
    valueDays: t.valueDays,
    valueDaysByCount: t.valueDaysByCount,
    bank: t.bank,
    allowedCardFamilies: t.allowedCardFamilies,
    rates: t.rates.map((r) => ({ count: r.count, brand: r.brand, onUs: r.onUs, rateBps: r.rateBps, fixedFee: r.fixedFee })),
    // Only on a router, so a plain terminal's JSON is what it always was.
    ...(t.routing !== null && { routing: t.routing }),
  };
}

type TerminalJson = ReturnType<typeof toTerminalJson>;

const toListRow = (t: TerminalJson) => ({
  id: t.id,
  partner: t.partnerId,
  connection: t.routing === undefined ? t.connectionId : `router: ${t.routing.members.join(",")}`,
  active: t.active ? "yes" : "no",
  basis: t.commissionBasis,
  installments: t.installments.join(","),
  infrastructure: t.infrastructure,
  valueDays: t.valueDays,
  bank: t.bank,
});

/** A router's members and rules; nothing for a plain terminal, whose output stays as it was. */
function routerLines(t: TerminalJson): Array<[string, unknown]> {
  const r = t.routing;
  if (r === undefined) return [];
  const rules = r.rules.map((rule) => rule.name).join(", ") || "none";
  return [
    ["router of", r.members],
    ["routing", `${r.order}; rules ${rules}; fallback ${r.fallback.join(", ")}`],
  ];
}

function describeTerminal(t: TerminalJson): string {
  const byCount = t.valueDaysByCount === null ? [] : Object.entries(t.valueDaysByCount).map(([n, d]) => `${n}:${d}`);
  return [
    details([
      ["id", t.id],
      ["partner", t.partnerId],
      ["connection", t.connectionId],
      ...routerLines(t),
      ["active", t.active ? "yes" : "no"],
      ["commission basis", t.commissionBasis],
      ["installments", t.installments],
      ["infrastructure", t.infrastructure],
      ["direct collection", t.directCollection ? "yes" : "no"],
      ["value days", t.valueDays],
      ["value days by count", byCount],
      ["bank", t.bank],
      ["card families", t.allowedCardFamilies ?? ALL],
    ]),
    section(
      "rates",
      table(
        t.rates.map((r) => ({
          count: r.count,
          brand: r.brand,
          onUs: r.onUs,
          rateBps: r.rateBps,
          fixedFee: r.fixedFee === null ? null : tryOrDash(r.fixedFee),
        })),
      ),
    ),
  ].join("\n");
}

const list = defineCommand({
  meta: { name: "list", description: "List terminals, optionally of one partner.\n\nExample: kasa terminals list --partner ptn_demo" },
  args: { partner: { type: "string", description: "only this partner's terminals" }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const json = (await store.q.catalog.terminals(optional(args.partner))).map(toTerminalJson);
      output(args, json, () => table(json.map(toListRow)));
    }),
});

const show = defineCommand({
  meta: { name: "show", description: "Show one terminal with its rate rows.\n\nExample: kasa terminals show T-1001" },
  args: { id: { type: "positional", description: "terminal id", required: true }, ...commonArgs },
  run: ({ args }) =>
    withStore(args, async ({ store }) => {
      const t = await store.q.catalog.terminal(requireArg(args.id, "id"));
      if (!t) throw new CliError(`unknown terminal ${args.id}`);
      const json = toTerminalJson(t);
      output(args, json, () => describeTerminal(json));
    }),
});

const FLAG_OF: Record<string, string> = {
  active: "active",
  installments: "installments",
  commissionBasis: "commission-basis",
  infrastructure: "infrastructure",
  directCollection: "direct-collection",
  valueDays: "value-days",
  "valueDays.default": "value-days",
  bank: "bank",
  allowedCardFamilies: "card-families",
};

function readPatch(args: Record<string, unknown>): TerminalPatch {
  const patch: TerminalPatch = {};
  const given = (flag: string) => args[flag] !== undefined;
  if (given("active")) patch.active = args.active === "true";
  if (given("installments")) patch.installments = parseList(args.installments, "installments").map((n) => parseInteger(n, "installments"));
  if (given("commission-basis")) patch.commissionBasis = args["commission-basis"] as TerminalRow["commissionBasis"];
  if (given("infrastructure")) patch.infrastructure = args.infrastructure as TerminalRow["infrastructure"];
  if (given("direct-collection")) patch.directCollection = args["direct-collection"] === "true";
  if (given("value-days")) patch.valueDays = parseInteger(args["value-days"], "value-days");
  if (given("bank")) patch.bank = orNone(args.bank, String);
  if (given("card-families"))
    patch.allowedCardFamilies = args["card-families"] === ALL ? null : parseList(args["card-families"], "card-families");
  if (Object.keys(patch).length === 0)
    throw new CliError(`nothing to set: give at least one of ${[...new Set(Object.values(FLAG_OF))].map((f) => `--${f}`).join(", ")}`, 2);
  return patch;
}

const set = defineCommand({
  meta: {
    name: "set",
    description:
      "Change a terminal's switches (validated like the seed file; rates stay in the seed file).\n\nExample: kasa terminals set T-1001 --active false --installments 1,3,6",
  },
  args: {
    id: { type: "positional", description: "terminal id", required: true },
    active: { type: "enum", options: BOOL, description: "true or false" },
    installments: { type: "string", description: "installment counts, comma-separated (1-36)", valueHint: "1,3,6" },
    "commission-basis": { type: "enum", options: ["gross", "net"], description: "gross or net" },
    infrastructure: { type: "enum", options: ["standard", "extended"], description: "standard (30 min 3D window) or extended (135 min)" },
    "direct-collection": { type: "enum", options: BOOL, description: "true or false" },
    "value-days": { type: "string", description: "days from capture to value date (0-365); per-count overrides stay", valueHint: "N" },
    bank: { type: "string", description: `bank name for on-us matching, or ${NONE}`, valueHint: "NAME" },
    "card-families": { type: "string", description: `allowed card families (credit,debit,prepaid,foreign), or ${ALL}`, valueHint: "a,b" },
    ...commonArgs,
  },
  run: ({ args }) => {
    const patch = readPatch(args);
    return withStore(args, async ({ store }) => {
      const id = requireArg(args.id, "id");
      const updated = await withFlagNames(FLAG_OF, () => editTerminal({ store }, id, patch));
      const json = toTerminalJson(updated);
      output(args, json, () => `updated ${id}\n${describeTerminal(json)}`);
    });
  },
});

export const terminalsCommand = defineCommand({
  meta: {
    name: "terminals",
    description: "List, inspect and change terminals.\n\nExample: kasa terminals set T-1001 --active false",
  },
  subCommands: { list, show, set },
});
