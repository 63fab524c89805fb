import type { Db } from "./db-types";
import { secretBox, type SecretBox } from "../secret-box";
import { secretAad } from "./secrets-sql";
import type { BinRow, BreakerSettings, ConnectionRow, PspRow, RoutingConfig, StoredRate, TerminalRow } from "../rows";

// Rows of what onboarding provisions: providers, bank connections, terminals and the BIN table.

const bool = (v: unknown): boolean => v === 1 || v === true;
const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : (JSON.parse(String(v)) as T));

const CONNECTION_COLUMNS = `id, psp_id AS pspId, bank, active, accepts_foreign AS acceptsForeignCards,
  accepts_debit AS acceptsDebit, per_tx_max AS perTxMax, daily_max AS dailyMax, weekly_max AS weeklyMax,
  monthly_max AS monthlyMax, window_minutes AS windowMinutes, window_max AS windowMax, bank_config AS bankConfig, breaker`;

const TERMINAL_COLUMNS = `id, partner_id AS partnerId, connection_id AS connectionId, active,
  commission_basis AS commissionBasis, installments, rates, infrastructure, direct_collection AS directCollection,
  value_days AS valueDays, value_days_by_count AS valueDaysByCount, bank, allowed_card_families AS allowedCardFamilies, routing`;

type Raw = Record<string, unknown>;

const SECRET = (id: string) => secretAad("connections", "bank_config", id);

const toTerminal = (r: Raw): TerminalRow =>
  ({
    ...r,
    active: bool(r.active),
    directCollection: bool(r.directCollection),
    installments: json<number[]>(r.installments) ?? [],
    rates: json<StoredRate[]>(r.rates) ?? [],
    valueDaysByCount: json<Record<string, number>>(r.valueDaysByCount),
    allowedCardFamilies: json<string[]>(r.allowedCardFamilies),
    routing: json<RoutingConfig>(r.routing),
  }) as TerminalRow;

export function catalogSql(db: Db, box: SecretBox = secretBox(null)) {
  const toConnection = (r: Raw): ConnectionRow =>
    ({
      ...r,
      active: bool(r.active),
      acceptsForeignCards: bool(r.acceptsForeignCards),
      acceptsDebit: bool(r.acceptsDebit),
      bankConfig: box.open((r.bankConfig as string | null) ?? null, SECRET(String(r.id))),
      breaker: json<BreakerSettings>(r.breaker),
    }) as ConnectionRow;
  const b = (v: boolean): number => (v ? 1 : 0);
  const j = (v: unknown): string | null => (v === null ? null : JSON.stringify(v));
  return {
    psp: (id: string) => {
      const r = db.prepare("SELECT id, active FROM psps WHERE id = ?").get<Raw>(id);
      return r && ({ id: String(r.id), active: bool(r.active) } satisfies PspRow);
    },
    upsertPsp: (p: PspRow) =>
      void db
        .prepare("INSERT INTO psps (id, active) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET active = excluded.active")
        .run(p.id, b(p.active)),
    connection: (id: string) => {
      const r = db.prepare(`SELECT ${CONNECTION_COLUMNS} FROM connections WHERE id = ?`).get<Raw>(id);
      return r && toConnection(r);
    },
    connections: () => db.prepare(`SELECT ${CONNECTION_COLUMNS} FROM connections ORDER BY id`).all<Raw>().map(toConnection),
    upsertConnection(
      c: Omit<ConnectionRow, "bankConfig" | "breaker"> & { bankConfig?: string | null; breaker?: BreakerSettings | null },
    ): void {
      db.prepare(
        `INSERT INTO connections (id, psp_id, bank, active, accepts_foreign, accepts_debit, per_tx_max, daily_max,
           weekly_max, monthly_max, window_minutes, window_max, bank_config, breaker) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET psp_id = excluded.psp_id, bank = excluded.bank, active = excluded.active,
           accepts_foreign = excluded.accepts_foreign, accepts_debit = excluded.accepts_debit,
           per_tx_max = excluded.per_tx_max, daily_max = excluded.daily_max, weekly_max = excluded.weekly_max,
           monthly_max = excluded.monthly_max, window_minutes = excluded.window_minutes, window_max = excluded.window_max,
           bank_config = excluded.bank_config, breaker = excluded.breaker`,
      ).run(
        c.id,
        c.pspId,
        c.bank,
        b(c.active),
        b(c.acceptsForeignCards),
        b(c.acceptsDebit),
        c.perTxMax,
        c.dailyMax,
        c.weeklyMax,
        c.monthlyMax,
        c.windowMinutes,
        c.windowMax,
        box.seal(c.bankConfig ?? null, SECRET(c.id)),
        j(c.breaker ?? null),
      );
    },
    terminal: (id: string) => {
      const r = db.prepare(`SELECT ${TERMINAL_COLUMNS} FROM terminals WHERE id = ?`).get<Raw>(id);
      return r && toTerminal(r);
    },
    terminals: (partnerId: string | null) =>
      (partnerId === null
        ? db.prepare(`SELECT ${TERMINAL_COLUMNS} FROM terminals ORDER BY id`).all<Raw>()
        : db.prepare(`SELECT ${TERMINAL_COLUMNS} FROM terminals WHERE partner_id = ? ORDER BY id`).all<Raw>(partnerId)
      ).map(toTerminal),
    upsertTerminal(t: Omit<TerminalRow, "routing"> & { routing?: RoutingConfig | null }): void {
      db.prepare(
        `INSERT INTO terminals (id, partner_id, connection_id, active, commission_basis, installments, rates,
           infrastructure, direct_collection, value_days, value_days_by_count, bank, allowed_card_families, routing)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET partner_id = excluded.partner_id, connection_id = excluded.connection_id,
           active = excluded.active, commission_basis = excluded.commission_basis, installments = excluded.installments,
           rates = excluded.rates, infrastructure = excluded.infrastructure, direct_collection = excluded.direct_collection,
           value_days = excluded.value_days, value_days_by_count = excluded.value_days_by_count, bank = excluded.bank,
           allowed_card_families = excluded.allowed_card_families, routing = excluded.routing`,
      ).run(
        t.id,
        t.partnerId,
        t.connectionId,
        b(t.active),
        t.commissionBasis,
        JSON.stringify(t.installments),
        JSON.stringify(t.rates),
        t.infrastructure,
        b(t.directCollection),
        t.valueDays,
        j(t.valueDaysByCount),
        t.bank,
        j(t.allowedCardFamilies),
        j(t.routing ?? null),
      );
    },
    bin: (bin: string) => {
      const r = db.prepare("SELECT bin, brand, family, bank, installments FROM bins WHERE bin = ?").get<Raw>(bin);
      return r && ({ ...r, installments: bool(r.installments) } as BinRow);
    },
    binCount: () => db.prepare("SELECT count(*) AS n FROM bins").get<{ n: number }>()?.n ?? 0,
    upsertBin(r: BinRow): void {
      db.prepare(
        `INSERT INTO bins (bin, brand, family, bank, installments) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (bin) DO UPDATE SET brand = excluded.brand, family = excluded.family, bank = excluded.bank,
           installments = excluded.installments`,
      ).run(r.bin, r.brand, r.family, r.bank, b(r.installments));
    },
  };
}
