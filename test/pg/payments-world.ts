import { attemptsPg } from "../../src/store/postgres/attempts-pg";
import { bankPg } from "../../src/store/postgres/bank-pg";
import { linkCheckoutPg } from "../../src/store/postgres/link-checkout-pg";
import { paymentsPg } from "../../src/store/postgres/payments-pg";
import type { Pg } from "../../src/store/postgres/pg";
import { refundsPg } from "../../src/store/postgres/refunds-pg";
import { insertCatalogForTests } from "../../src/store/postgres/seed-fixtures-pg";
import type { ConnectionRow, LinkRow, PartnerRow, TerminalRow } from "../../src/store/rows";
import type { NewPayment } from "../../src/store/rows-money";
import type { Repos } from "../../src/store/store";
import type { Both } from "./differential";
import { connectionRow as connection, partnerRow, terminalRow } from "../support/catalog-rows";

// The world of the payments, attempts, bank, refunds and link-checkout differential tests (issue
// 23): one PSP, two connections, two partners, three terminals and a link, written on SQLite
// through the real operations and on PostgreSQL through the tests-only seed of
// src/store/postgres/seed-fixtures-pg.ts (the catalog, partners and links groups are another
// helper's), so both stores hold the same rows before the calls under test.

/** Sunday 2026-11-29 18:00 Istanbul: day, ISO week and month ends are a few hours away. */
export const T0 = Date.parse("2026-11-29T15:00:00.000Z");

const partner = (id: string): PartnerRow => partnerRow(id, 0);
const terminal = (id: string, partnerId: string, connectionId: string): TerminalRow => terminalRow({ id, partnerId, connectionId });

const LINK: LinkRow = {
  id: "lnk_1",
  partnerId: "ptn_a",
  token: "tok_1",
  partnerReference: 1,
  terminalId: "T-1",
  status: "pending",
  amount: 1_000,
  shareBps: 0,
  description: null,
  redirectUrl: null,
  allowedCounts: null,
  items: null,
  payerName: null,
  attemptSeq: 0,
  firstOpenedAtMs: null,
  lastOpenedAtMs: null,
  expiresAtMs: T0 + 86_400_000,
  createdAtMs: T0,
  updatedAtMs: T0,
};

const WORLD = {
  psps: [{ id: "psp-1", active: true }],
  connections: [connection("vpos-1"), connection("vpos-2")],
  partners: [partner("ptn_a"), partner("ptn_b")],
  terminals: [terminal("T-1", "ptn_a", "vpos-1"), terminal("T-2", "ptn_a", "vpos-2"), terminal("T-3", "ptn_b", "vpos-1")],
  links: [LINK],
};

/** Writes the world on both stores. */
export async function seedWorld(both: Both): Promise<void> {
  await both.sqlite(async (tx) => {
    for (const p of WORLD.psps) await tx.catalog.upsertPsp(p);
    for (const c of WORLD.connections) await tx.catalog.upsertConnection(c);
    for (const p of WORLD.partners) await tx.partners.upsert(p);
    for (const t of WORLD.terminals) await tx.catalog.upsertTerminal(t);
    for (const l of WORLD.links) await tx.links.insert(l);
  });
  await both.pg((sql) => insertCatalogForTests(sql, WORLD));
}

const TERMINAL_OF: Record<string, [partnerId: string, connectionId: string]> = {
  "T-1": ["ptn_a", "vpos-1"],
  "T-2": ["ptn_a", "vpos-2"],
  "T-3": ["ptn_b", "vpos-1"],
};

/** An `initiated` payment n on terminal T-1 unless `over` says otherwise. */
export function newPayment(n: number, over: Partial<NewPayment> = {}): NewPayment {
  const terminalId = over.terminalId ?? "T-1";
  const [partnerId, connectionId] = TERMINAL_OF[terminalId]!;
  const code = `pay_${String(n).padStart(20, "0")}`;
  return {
    code,
    partnerId,
    terminalId,
    connectionId,
    partnerTxCode: `tx-${n}`,
    channel: "api",
    linkId: null,
    amount: 1_000 + n,
    principal: 1_000 + n,
    currency: "TRY",
    installment: 1,
    description: null,
    returnUrl: null,
    paymentRef: `ref_${code}`,
    expiresAtMs: T0 + 600_000,
    createdAtMs: T0,
    ...over,
  };
}

/** The groups under test, as each store has them. */
export type Ops = Pick<Repos, "payments" | "attempts" | "bank" | "linkCheckout" | "refunds">;

const pgOps = (sql: Pg): Ops => ({
  payments: paymentsPg(sql),
  attempts: attemptsPg(sql),
  bank: bankPg(sql),
  linkCheckout: linkCheckoutPg(sql),
  refunds: refundsPg(sql),
});

/** Runs the same calls on both stores (a SQLite unit, a PostgreSQL transaction); both answers. */
export async function onBoth<T>(both: Both, f: (o: Ops) => Promise<T>): Promise<{ sqlite: T; pg: T }> {
  const sqlite = await both.sqlite((tx) => f(tx));
  const pg = await both.pg((sql) => f(pgOps(sql)));
  return { sqlite, pg };
}
