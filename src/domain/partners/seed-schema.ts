import * as v from "valibot";
import type { BankModule } from "../../bank/module";
import { API_KEY_MIN_CHARS } from "../../limits";
import { breakerSchema, routingSchema } from "../routing/schema";

// docs/seed.md, The seed file: the seed file. Absent and null are the same for optional fields (docs/decisions.md, Readings of the contract).

const id = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits, _ . : - only"));
const amount = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const opt = <S extends v.GenericSchema>(s: S) => v.nullish(s);
const count = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(36));

export const psp = v.strictObject({ id, active: opt(v.boolean()) });

// A connection names its bank (the first of the list when absent) and carries that bank's
// settings under the bank's id (docs/banks.md, "Seed file"); the banks come from the list given.
const connectionFields = {
  id,
  psp: id,
  bank: opt(v.string()),
  active: opt(v.boolean()),
  acceptsForeignCards: opt(v.boolean()),
  acceptsDebit: opt(v.boolean()),
  limits: opt(
    v.strictObject({
      perTxMax: opt(amount),
      dailyMax: opt(amount),
      weeklyMax: opt(amount),
      monthlyMax: opt(amount),
      window: opt(v.strictObject({ minutes: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(44640)), maxAmount: amount })),
    }),
  ),
  breaker: opt(breakerSchema),
};

/** The connection row of a seed file whose banks are `banks`: their ids, and each one's settings object. */
export function connectionSchema(banks: readonly BankModule[]) {
  const { id: idField, psp: pspField, bank: _bank, ...rest } = connectionFields;
  const settings: Record<string, v.GenericSchema> = {};
  for (const b of banks) {
    if (b.id in connectionFields) throw new Error(`bank id "${b.id}" is a connection field`);
    if (b.settings) settings[b.id] = opt(b.settings.schema);
  }
  // Fields in this order, so the first bad field of a row is found as before banks were modules.
  return v.strictObject({ id: idField, psp: pspField, bank: opt(v.picklist(banks.map((b) => b.id))), ...settings, ...rest });
}

/** A connection row: its bank's settings sit under the bank's id, checked by that bank's schema. */
export type SeedConnection = v.InferOutput<v.StrictObjectSchema<typeof connectionFields, undefined>> & {
  readonly [bankSettings: string]: unknown;
};

const apiKey = v.pipe(
  v.string(),
  v.regex(/^kasa_sk_[A-Za-z0-9_]+$/, "must be kasa_sk_ followed by letters, digits or _"),
  v.minLength(API_KEY_MIN_CHARS),
  v.maxLength(200),
);
const host = v.pipe(v.string(), v.minLength(1), v.maxLength(253), v.regex(/^[a-z0-9.-]+(:\d{1,5})?$/, "lower-case host name"));

export const partner = v.strictObject({
  id,
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  status: opt(v.picklist(["active", "suspended", "closed"])),
  apiKeys: opt(v.pipe(v.array(apiKey), v.maxLength(100))),
  webhook: opt(
    v.strictObject({
      url: opt(v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//i, "http or https"))),
      secret: opt(v.pipe(v.string(), v.minLength(8), v.maxLength(200))),
    }),
  ),
  allowedRedirectHosts: opt(v.pipe(v.array(host), v.maxLength(100))),
  amountLimits: opt(v.strictObject({ min: opt(amount), max: opt(amount) })),
  cardAttemptLimit: opt(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20))),
  installmentCap: opt(count),
  rateLimitMultiplier: opt(v.pipe(v.number(), v.minValue(1), v.maxValue(1000))),
  payoutAccount: opt(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
});

const rate = v.strictObject({
  count,
  brand: opt(v.pipe(v.string(), v.minLength(1), v.maxLength(40))),
  onUs: opt(v.boolean()),
  rateBps: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(9999)),
  fixedFee: opt(amount),
});

const family = v.picklist(["credit", "debit", "prepaid", "foreign"]);
const valueDays = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(365));

// A router (docs/routing.md) has `routing` and none of connection, installments, rates, valueDays,
// bank, directCollection, allowedCardFamilies; a plain terminal needs the first three. Both are
// checked after the shape (seed-router.ts), so each refusal names its field.
export const terminal = v.strictObject({
  id,
  partner: id,
  connection: opt(id),
  active: opt(v.boolean()),
  commissionBasis: opt(v.picklist(["gross", "net"])),
  installments: opt(v.pipe(v.array(count), v.minLength(1), v.maxLength(36))),
  infrastructure: opt(v.picklist(["standard", "extended"])),
  directCollection: opt(v.boolean()),
  // A number, or per-count overrides: {"default": 1, "6": 2}.
  valueDays: opt(v.union([valueDays, v.record(v.pipe(v.string(), v.regex(/^(default|\d{1,2})$/, "count or default")), valueDays)])),
  bank: opt(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  allowedCardFamilies: opt(v.pipe(v.array(family), v.minLength(1))),
  rates: opt(v.pipe(v.array(rate), v.maxLength(500))),
  routing: opt(routingSchema),
});

export const bin = v.strictObject({
  bin: v.pipe(v.string(), v.regex(/^\d{8}$/, "exactly 8 digits")),
  brand: opt(v.pipe(v.string(), v.minLength(1), v.maxLength(40))),
  family,
  bank: opt(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  installments: opt(v.boolean()),
});

export const hold = v.strictObject({ partner: id, reason: v.picklist(["admin_hold"]) });

export const agreement = v.strictObject({
  partner: id,
  agreementCode: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  agreementName: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  version: v.pipe(v.string(), v.minLength(1), v.maxLength(32)),
  requirement: v.picklist(["consent", "wet_signature"]),
  kind: v.picklist(["first", "renewal"]),
  deadlineAt: opt(v.pipe(v.string(), v.isoTimestamp())),
  accepted: opt(v.boolean()),
});

const list = <S extends v.GenericSchema>(s: S) => opt(v.pipe(v.array(s), v.maxLength(1_000_000)));

const seedFields = {
  psps: list(psp),
  partners: list(partner),
  terminals: list(terminal),
  bins: list(bin),
  holds: list(hold),
  agreements: list(agreement),
};

/** The whole seed file for these banks (built once per list). */
export function seedFileSchema(banks: readonly BankModule[]) {
  const { psps, ...rest } = seedFields;
  return v.strictObject({ psps, connections: list(connectionSchema(banks)), ...rest });
}

export type SeedFile = v.InferOutput<v.StrictObjectSchema<typeof seedFields, undefined>> & {
  connections?: SeedConnection[] | null | undefined;
};
