import { connectionRow, partnerRow, terminalRow } from "../support/catalog-rows";
import type { Repos } from "../../src/store/store";
import type { Pg } from "../../src/store/postgres/pg";
import {
  type SeedPayment,
  type SeedRefund,
  seedPartnerPg,
  seedPaymentPg,
  seedRefundPg,
  seedTerminalPg,
} from "../../src/store/postgres/seed-links-fixtures-pg";

// The prerequisite rows of the links, webhooks, settlement, operator and panel differential tests
// (issue 23), written on each store: on SQLite through the real operations, on PostgreSQL through
// the tests-only seeds of src/store/postgres/seed-links-fixtures-pg.ts (the partners, catalog,
// payments and refunds operations there are another group's), leaving the same rows on both.

export type TerminalSeed = { id: string; partnerId: string; connectionId: string; bank: string };

export async function partnersSqlite(tx: Repos, ids: readonly string[]): Promise<void> {
  for (const id of ids) await tx.partners.upsert(partnerRow(id, 1000));
}

export async function partnersPg(sql: Pg, ids: readonly string[]): Promise<void> {
  for (const id of ids) await seedPartnerPg(sql, id, 1000);
}

export async function terminalSqlite(tx: Repos, t: TerminalSeed): Promise<void> {
  await tx.catalog.upsertPsp({ id: "psp", active: true });
  if ((await tx.catalog.connection(t.connectionId)) === undefined) {
    await tx.catalog.upsertConnection(connectionRow(t.connectionId, { pspId: "psp", bank: t.bank, acceptsForeignCards: true }));
  }
  await tx.catalog.upsertTerminal(terminalRow(t));
}

export const terminalPg = (sql: Pg, t: TerminalSeed) => seedTerminalPg(sql, t);

/** A payment through payments.insert, then markCaptured when it is captured. */
export async function paymentSqlite(tx: Repos, p: SeedPayment): Promise<void> {
  await tx.payments.insert({
    code: p.code,
    partnerId: p.partnerId,
    terminalId: p.terminalId,
    connectionId: p.connectionId,
    partnerTxCode: `tx-${p.code}`,
    channel: p.linkId === null ? "api" : "link",
    linkId: p.linkId,
    amount: p.amount,
    principal: p.amount,
    currency: "TRY",
    installment: 1,
    description: null,
    returnUrl: null,
    paymentRef: `ref-${p.code}`,
    expiresAtMs: p.expiresAtMs,
    createdAtMs: p.createdAtMs,
  });
  const c = p.captured;
  if (c === null) return;
  const facts = {
    commissionAmount: c.commission,
    netToPartner: c.net,
    expectedValueDate: c.valueDate,
    bankReference: `bank-${p.code}`,
    authCode: "auth",
  };
  if (!(await tx.payments.markCaptured(p.code, ["initiated"], facts, c.atMs))) throw new Error(`seed: ${p.code} not captured`);
}

export const paymentPg = (sql: Pg, p: SeedPayment) => seedPaymentPg(sql, p);

/** A refund through refunds.insertPending, then finish when it is finished. */
export async function refundSqlite(tx: Repos, r: SeedRefund): Promise<void> {
  await tx.refunds.insertPending({
    id: r.id,
    paymentCode: r.paymentCode,
    partnerId: r.partnerId,
    partnerRefundCode: `prc-${r.id}`,
    method: r.method,
    amount: r.amount,
    createdAtMs: r.createdAtMs,
  });
  const f = r.finished;
  if (f === null) return;
  const outcome = { procReturnCode: null, authCode: null, errMsg: null, bankReference: null };
  if (!(await tx.refunds.finish(r.id, ["pending"], f.status, outcome, f.atMs))) throw new Error(`seed: ${r.id} not finished`);
}

export const refundPg = (sql: Pg, r: SeedRefund) => seedRefundPg(sql, r);
