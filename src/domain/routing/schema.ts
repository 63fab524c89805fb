import * as v from "valibot";
import type { BreakerSettings, RoutingConfig } from "../../store/rows";

// The seed file's `routing` object of a router and `breaker` object of a connection (docs/routing.md,
// The seed object). Absent and null are the same for optional fields, as everywhere in the seed.

const opt = <S extends v.GenericSchema>(s: S) => v.nullish(s);
const id = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits, _ . : - only"));
const count = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(36));
const amount = v.pipe(v.number(), v.safeInteger(), v.minValue(0));
const text = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const list = <S extends v.GenericSchema>(s: S) => v.pipe(v.array(s), v.minLength(1), v.maxLength(1000));
const positive = v.pipe(v.number(), v.integer("must be a positive integer"), v.minValue(1, "must be a positive integer"));

const when = v.strictObject({
  bins: opt(list(v.pipe(v.string(), v.regex(/^\d{1,8}$/, "a BIN prefix of 1-8 digits")))),
  brands: opt(list(text)),
  banks: opt(list(text)),
  families: opt(list(v.picklist(["credit", "debit", "prepaid", "foreign"]))),
  foreign: opt(v.boolean()),
  installmentsFrom: opt(count),
  installmentsTo: opt(count),
  amountFrom: opt(amount),
  amountTo: opt(amount),
});

const rule = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  when: opt(when),
  route: opt(v.pipe(v.array(id), v.minLength(1), v.maxLength(50))),
  split: opt(
    v.pipe(v.array(v.strictObject({ terminal: id, weight: v.pipe(positive, v.maxValue(1_000_000)) })), v.minLength(1), v.maxLength(50)),
  ),
});

export const routingSchema = v.strictObject({
  members: v.pipe(v.array(id), v.minLength(1), v.maxLength(50)),
  rules: opt(v.pipe(v.array(rule), v.maxLength(100))),
  fallback: opt(v.pipe(v.array(id), v.minLength(1), v.maxLength(50))),
  order: opt(v.picklist(["rules", "cheapest"])),
  onUsInstallments: opt(v.boolean()),
});

export const breakerSchema = v.strictObject({
  failures: opt(v.pipe(positive, v.maxValue(1000))),
  windowSeconds: opt(v.pipe(positive, v.maxValue(86_400))),
  cooldownSeconds: opt(v.pipe(positive, v.maxValue(86_400))),
});

export type SeedRouting = v.InferOutput<typeof routingSchema>;
export type SeedBreaker = v.InferOutput<typeof breakerSchema>;

/** The defaults of docs/routing.md, Health: open after 5 failures in 60 s, half-open after 30 s. */
export const BREAKER_DEFAULTS: BreakerSettings = { failures: 5, windowSeconds: 60, cooldownSeconds: 30 };

export function toBreakerSettings(b: SeedBreaker | null | undefined): BreakerSettings | null {
  if (!b) return null;
  return {
    failures: b.failures ?? BREAKER_DEFAULTS.failures,
    windowSeconds: b.windowSeconds ?? BREAKER_DEFAULTS.windowSeconds,
    cooldownSeconds: b.cooldownSeconds ?? BREAKER_DEFAULTS.cooldownSeconds,
  };
}

/** The checked seed object as the terminal row keeps it: defaults filled, null keys dropped. */
export function toRoutingConfig(r: SeedRouting): RoutingConfig {
  return {
    members: [...new Set(r.members)],
    rules: (r.rules ?? []).map((x) => ({
      name: x.name,
      when: Object.fromEntries(Object.entries(x.when ?? {}).filter(([, value]) => value !== null && value !== undefined)),
      route: x.route ?? null,
      split: x.split ?? null,
    })),
    // No fallback list: every member, in the order `members` gives.
    fallback: [...new Set(r.fallback ?? r.members)],
    order: r.order ?? "rules",
    onUsInstallments: r.onUsInstallments ?? false,
  };
}
