import * as v from "valibot";
import type { BankModule } from "../../bank/module";
import { BANKS, bankOf, defaultBank } from "../../bank/registry";
import { describeIssue } from "../checks/valibot-issue";
import { hashApiKey } from "../../ids";
import { CARD_ATTEMPT_LIMIT_DEFAULT } from "../../limits";
import { Sensitive } from "../../sensitive";
import type { Repos } from "../../store/store";
import type { Store } from "../../store/store";
import { toBreakerSettings, toRoutingConfig } from "../routing/schema";
import { routerConnection, routerReferenceError, routerShapeError } from "./seed-router";
import { seedFileSchema, type SeedConnection, type SeedFile } from "./seed-schema";

export class SeedError extends Error {
  override name = "SeedError";
}

// The schema of each list of banks, built once (the registry's list, or a test's).
const schemas = new WeakMap<readonly BankModule[], ReturnType<typeof seedFileSchema>>();

/**
 * Validates the whole file first (shape, then references); answers the path of the first bad
 * field. `banks`: the banks a connection may name, each with its settings' schema.
 */
export function parseSeed(json: unknown, banks: readonly BankModule[] = BANKS): SeedFile {
  let schema = schemas.get(banks);
  if (!schema) {
    schema = seedFileSchema(banks);
    schemas.set(banks, schema);
  }
  const result = v.safeParse(schema, json, { abortPipeEarly: true });
  if (!result.success) throw new SeedError(describeIssue(result.issues[0]));
  const seed = result.output as SeedFile;
  const shape = routerShapeError(seed.terminals ?? []);
  if (shape !== null) throw new SeedError(shape);
  return seed;
}

/** docs/seed.md, The seed file: one transaction, upsert by id, so a wrong file writes nothing and a repeat is a no-op. */
export async function applySeed(
  store: Store,
  seed: SeedFile,
  nowMs: number,
  newKeyId: () => string,
  banks: readonly BankModule[] = BANKS,
): Promise<void> {
  await store.write(async (tx) => {
    await checkReferences(tx, seed, banks);
    await writeSeed(tx, seed, nowMs, newKeyId, banks);
  });
}

/** A bank's settings object is required on its connections and refused on any other. */
function checkBankSettings(c: SeedConnection, i: number, banks: readonly BankModule[]): void {
  const bank = c.bank ?? defaultBank(banks).id;
  for (const b of banks) {
    if (!b.settings) continue;
    if (bank === b.id && !c[b.id]) throw new SeedError(`connections[${i}].${b.id}: is required when bank is "${b.id}"`);
    if (bank !== b.id && c[b.id]) throw new SeedError(`connections[${i}].${b.id}: only for bank "${b.id}"`);
  }
}

/** What a connection stores of its bank's settings (JSON), or null for a bank without settings. */
function storedSettings(c: SeedConnection, banks: readonly BankModule[]): string | null {
  const bank = bankOf(c.bank ?? defaultBank(banks).id, banks);
  const settings = c[bank.id];
  return bank.settings && settings ? JSON.stringify(bank.settings.toStored(settings)) : null;
}

async function checkReferences(tx: Repos, s: SeedFile, banks: readonly BankModule[]): Promise<void> {
  const has = (ids: Array<{ id: string }> | null | undefined, id: string) => (ids ?? []).some((x) => x.id === id);
  for (const [i, c] of (s.connections ?? []).entries()) {
    if (!has(s.psps, c.psp) && !(await tx.catalog.psp(c.psp))) throw new SeedError(`connections[${i}].psp: unknown psp "${c.psp}"`);
    checkBankSettings(c, i, banks);
  }
  const partnerExists = async (id: string) => has(s.partners, id) || (await tx.partners.get(id)) !== undefined;
  for (const [i, t] of (s.terminals ?? []).entries()) {
    if (!(await partnerExists(t.partner))) throw new SeedError(`terminals[${i}].partner: unknown partner "${t.partner}"`);
    const connection = t.connection;
    if (connection != null && !has(s.connections, connection) && !(await tx.catalog.connection(connection))) {
      throw new SeedError(`terminals[${i}].connection: unknown connection "${connection}"`);
    }
  }
  const routers = await routerReferenceError(tx, s.terminals ?? []);
  if (routers !== null) throw new SeedError(routers);
  for (const [i, h] of (s.holds ?? []).entries()) {
    if (!(await partnerExists(h.partner))) throw new SeedError(`holds[${i}].partner: unknown partner "${h.partner}"`);
  }
  for (const [i, a] of (s.agreements ?? []).entries()) {
    if (!(await partnerExists(a.partner))) throw new SeedError(`agreements[${i}].partner: unknown partner "${a.partner}"`);
  }
  for (const [i, p] of (s.partners ?? []).entries()) {
    const { min, max } = p.amountLimits ?? {};
    if (min != null && max != null && min > max) throw new SeedError(`partners[${i}].amountLimits.min: must be <= max`);
    for (const [k, key] of (p.apiKeys ?? []).entries()) {
      const owner = await tx.apiKeys.byHash(hashApiKey(new Sensitive(key)));
      if (owner && owner.partnerId !== p.id) throw new SeedError(`partners[${i}].apiKeys[${k}]: belongs to another partner`);
    }
  }
}

async function writeSeed(tx: Repos, s: SeedFile, nowMs: number, newKeyId: () => string, banks: readonly BankModule[]): Promise<void> {
  for (const p of s.psps ?? []) await tx.catalog.upsertPsp({ id: p.id, active: p.active ?? true });
  for (const c of s.connections ?? []) {
    const l = c.limits;
    await tx.catalog.upsertConnection({
      id: c.id,
      pspId: c.psp,
      bank: c.bank ?? defaultBank(banks).id,
      bankConfig: storedSettings(c, banks),
      active: c.active ?? true,
      acceptsForeignCards: c.acceptsForeignCards ?? false,
      acceptsDebit: c.acceptsDebit ?? true,
      perTxMax: l?.perTxMax ?? null,
      dailyMax: l?.dailyMax ?? null,
      weeklyMax: l?.weeklyMax ?? null,
      monthlyMax: l?.monthlyMax ?? null,
      windowMinutes: l?.window?.minutes ?? null,
      windowMax: l?.window?.maxAmount ?? null,
      breaker: toBreakerSettings(c.breaker),
    });
  }
  for (const p of s.partners ?? []) await writePartner(tx, p, nowMs, newKeyId);
  const terminals = s.terminals ?? [];
  // Plain terminals first: a router's row names its fallback-first member's connection.
  for (const t of terminals) if (!t.routing) await writeTerminal(tx, t);
  for (const t of terminals) if (t.routing) await writeRouter(tx, terminals, t);
  for (const b of s.bins ?? [])
    await tx.catalog.upsertBin({
      bin: b.bin,
      brand: b.brand ?? null,
      family: b.family,
      bank: b.bank ?? null,
      installments: b.installments ?? true,
    });
  for (const h of s.holds ?? []) await tx.acceptance.setHold({ partnerId: h.partner, reason: h.reason, sinceMs: nowMs });
  for (const a of s.agreements ?? []) await writeAgreement(tx, a, nowMs);
}

type SeedTerminal = NonNullable<SeedFile["terminals"]>[number];

async function writeRouter(tx: Repos, terminals: readonly SeedTerminal[], t: SeedTerminal): Promise<void> {
  const routing = t.routing;
  if (!routing) return;
  await tx.catalog.upsertTerminal({
    id: t.id,
    partnerId: t.partner,
    connectionId: await routerConnection(tx, terminals, { ...t, routing }),
    active: t.active ?? true,
    commissionBasis: t.commissionBasis ?? "gross",
    installments: [],
    rates: [],
    infrastructure: t.infrastructure ?? "standard",
    directCollection: false,
    valueDays: 1,
    valueDaysByCount: null,
    bank: null,
    allowedCardFamilies: null,
    routing: toRoutingConfig(routing),
  });
}

async function writeTerminal(tx: Repos, t: SeedTerminal): Promise<void> {
  const vd = t.valueDays;
  const byCount = vd !== null && typeof vd === "object" ? Object.fromEntries(Object.entries(vd).filter(([k]) => k !== "default")) : null;
  await tx.catalog.upsertTerminal({
    id: t.id,
    partnerId: t.partner,
    connectionId: t.connection ?? "",
    active: t.active ?? true,
    commissionBasis: t.commissionBasis ?? "gross",
    installments: [...new Set(t.installments ?? [])].sort((a, b) => a - b),
    rates: (t.rates ?? []).map((r) => ({
      count: r.count,
      brand: r.brand ?? null,
      onUs: r.onUs ?? null,
      rateBps: r.rateBps,
      fixedFee: r.fixedFee ?? null,
    })),
    infrastructure: t.infrastructure ?? "standard",
    directCollection: t.directCollection ?? false,
    valueDays: typeof vd === "number" ? vd : (vd?.default ?? 1),
    valueDaysByCount: byCount && Object.keys(byCount).length > 0 ? byCount : null,
    bank: t.bank ?? null,
    allowedCardFamilies: t.allowedCardFamilies ?? null,
    routing: null,
  });
}

async function writeAgreement(tx: Repos, a: NonNullable<SeedFile["agreements"]>[number], nowMs: number): Promise<void> {
  const existing = await tx.acceptance.agreement(a.partner, a.agreementCode, a.version);
  await tx.acceptance.upsertAgreement({
    partnerId: a.partner,
    agreementCode: a.agreementCode,
    version: a.version,
    agreementName: a.agreementName,
    requirement: a.requirement,
    kind: a.kind,
    deadlineAtMs: a.deadlineAt ? Date.parse(a.deadlineAt) : null,
    // Re-seeding keeps the original acceptance instant; `accepted: false` withdraws it.
    acceptedAtMs: a.accepted ? (existing?.acceptedAtMs ?? nowMs) : null,
    createdAtMs: existing?.createdAtMs ?? nowMs,
  });
}

async function writePartner(tx: Repos, p: NonNullable<SeedFile["partners"]>[number], nowMs: number, newKeyId: () => string): Promise<void> {
  await tx.partners.upsert({
    id: p.id,
    name: p.name,
    status: p.status ?? "active",
    allowedRedirectHosts: p.allowedRedirectHosts ? [...new Set(p.allowedRedirectHosts.map((h) => h.toLowerCase()))] : null,
    amountMin: p.amountLimits?.min ?? null,
    amountMax: p.amountLimits?.max ?? null,
    cardAttemptLimit: p.cardAttemptLimit ?? CARD_ATTEMPT_LIMIT_DEFAULT,
    installmentCap: p.installmentCap ?? null,
    webhookUrl: p.webhook?.url ?? null,
    webhookSecret: p.webhook?.secret ?? null,
    rateLimitMultiplier: p.rateLimitMultiplier ?? 1,
    payoutAccount: p.payoutAccount ?? null,
    createdAtMs: nowMs,
  });
  for (const key of p.apiKeys ?? []) {
    const secret = new Sensitive(key);
    await tx.apiKeys.insert({
      id: newKeyId(),
      partnerId: p.id,
      keyHash: hashApiKey(secret),
      keyHint: keyHint(key),
      createdAtMs: nowMs,
      revokedAtMs: null,
    });
  }
}

/** What listings show of a key: its prefix and last four characters. */
export const keyHint = (key: string): string => `kasa_sk_…${key.slice(-4)}`;
