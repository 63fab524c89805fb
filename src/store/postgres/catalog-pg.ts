import { secretBox, type SecretBox } from "../secret-box";
import { secretAad } from "../sqlite/secrets-sql";
import type { BinRow, BreakerSettings, ConnectionRow, PspRow, RoutingConfig, StoredRate, TerminalRow } from "../rows";
import type { CatalogOps } from "../store";
import type { Pg } from "./pg";

// What onboarding provisions, on PostgreSQL: providers, bank connections, terminals and the BIN
// table. The flags are boolean columns here, so they arrive as booleans; the JSON lists stay text
// (schema.sql keeps the bytes kasa wrote) and are parsed as the SQLite operations parse them.

const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : (JSON.parse(String(v)) as T));
const j = (v: unknown): string | null => (v === null ? null : JSON.stringify(v));

const CONNECTION_COLUMNS = `id, psp_id AS "pspId", bank, active, accepts_foreign AS "acceptsForeignCards",
  accepts_debit AS "acceptsDebit", per_tx_max AS "perTxMax", daily_max AS "dailyMax", weekly_max AS "weeklyMax",
  monthly_max AS "monthlyMax", window_minutes AS "windowMinutes", window_max AS "windowMax", bank_config AS "bankConfig", breaker`;

const TERMINAL_COLUMNS = `id, partner_id AS "partnerId", connection_id AS "connectionId", active,
  commission_basis AS "commissionBasis", installments, rates, infrastructure, direct_collection AS "directCollection",
  value_days AS "valueDays", value_days_by_count AS "valueDaysByCount", bank, allowed_card_families AS "allowedCardFamilies", routing`;

type Raw = Record<string, unknown>;

const SECRET = (id: string) => secretAad("connections", "bank_config", id);

const toTerminal = (r: Raw): TerminalRow =>
  ({
    ...r,
    installments: json<number[]>(r.installments) ?? [],
    rates: json<StoredRate[]>(r.rates) ?? [],
    valueDaysByCount: json<Record<string, number>>(r.valueDaysByCount),
    allowedCardFamilies: json<string[]>(r.allowedCardFamilies),
    routing: json<RoutingConfig>(r.routing),
  }) as TerminalRow;

export function catalogPg(sql: Pg, box: SecretBox = secretBox(null)): CatalogOps {
  const connectionCols = () => sql.unsafe(CONNECTION_COLUMNS);
  const terminalCols = () => sql.unsafe(TERMINAL_COLUMNS);
  const toConnection = (r: Raw): ConnectionRow =>
    ({
      ...r,
      bankConfig: box.open((r.bankConfig as string | null) ?? null, SECRET(String(r.id))),
      breaker: json<BreakerSettings>(r.breaker),
    }) as ConnectionRow;
  return {
    psp: async (id) => (await sql<PspRow[]>`SELECT id, active FROM psps WHERE id = ${id}`)[0],
    async upsertPsp(p) {
      await sql`INSERT INTO psps (id, active) VALUES (${p.id}, ${p.active}) ON CONFLICT (id) DO UPDATE SET active = excluded.active`;
    },
    async connection(id) {
      const r = (await sql<Raw[]>`SELECT ${connectionCols()} FROM connections WHERE id = ${id}`)[0];
      return r && toConnection(r);
    },
    connections: async () => (await sql<Raw[]>`SELECT ${connectionCols()} FROM connections ORDER BY id COLLATE "C"`).map(toConnection),
    async upsertConnection(c) {
      await sql`
        INSERT INTO connections (id, psp_id, bank, active, accepts_foreign, accepts_debit, per_tx_max, daily_max,
          weekly_max, monthly_max, window_minutes, window_max, bank_config, breaker)
        VALUES (${c.id}, ${c.pspId}, ${c.bank}, ${c.active}, ${c.acceptsForeignCards}, ${c.acceptsDebit}, ${c.perTxMax},
          ${c.dailyMax}, ${c.weeklyMax}, ${c.monthlyMax}, ${c.windowMinutes}, ${c.windowMax},
          ${box.seal(c.bankConfig ?? null, SECRET(c.id))}, ${j(c.breaker ?? null)})
        ON CONFLICT (id) DO UPDATE SET psp_id = excluded.psp_id, bank = excluded.bank, active = excluded.active,
          accepts_foreign = excluded.accepts_foreign, accepts_debit = excluded.accepts_debit,
          per_tx_max = excluded.per_tx_max, daily_max = excluded.daily_max, weekly_max = excluded.weekly_max,
          monthly_max = excluded.monthly_max, window_minutes = excluded.window_minutes, window_max = excluded.window_max,
          bank_config = excluded.bank_config, breaker = excluded.breaker`;
    },
    async terminal(id) {
      const r = (await sql<Raw[]>`SELECT ${terminalCols()} FROM terminals WHERE id = ${id}`)[0];
      return r && toTerminal(r);
    },
    terminals: async (partnerId) =>
      (partnerId === null
        ? await sql<Raw[]>`SELECT ${terminalCols()} FROM terminals ORDER BY id COLLATE "C"`
        : await sql<Raw[]>`SELECT ${terminalCols()} FROM terminals WHERE partner_id = ${partnerId} ORDER BY id COLLATE "C"`
      ).map(toTerminal),
    async upsertTerminal(t) {
      await sql`
        INSERT INTO terminals (id, partner_id, connection_id, active, commission_basis, installments, rates,
          infrastructure, direct_collection, value_days, value_days_by_count, bank, allowed_card_families, routing)
        VALUES (${t.id}, ${t.partnerId}, ${t.connectionId}, ${t.active}, ${t.commissionBasis}, ${JSON.stringify(t.installments)},
          ${JSON.stringify(t.rates)}, ${t.infrastructure}, ${t.directCollection}, ${t.valueDays}, ${j(t.valueDaysByCount)},
          ${t.bank}, ${j(t.allowedCardFamilies)}, ${j(t.routing ?? null)})
        ON CONFLICT (id) DO UPDATE SET partner_id = excluded.partner_id, connection_id = excluded.connection_id,
          active = excluded.active, commission_basis = excluded.commission_basis, installments = excluded.installments,
          rates = excluded.rates, infrastructure = excluded.infrastructure, direct_collection = excluded.direct_collection,
          value_days = excluded.value_days, value_days_by_count = excluded.value_days_by_count, bank = excluded.bank,
          allowed_card_families = excluded.allowed_card_families, routing = excluded.routing`;
    },
    bin: async (bin) => (await sql<BinRow[]>`SELECT bin, brand, family, bank, installments FROM bins WHERE bin = ${bin}`)[0],
    binCount: async () => (await sql<{ n: number }[]>`SELECT count(*) AS n FROM bins`)[0]?.n ?? 0,
    async upsertBin(r) {
      await sql`
        INSERT INTO bins (bin, brand, family, bank, installments) VALUES (${r.bin}, ${r.brand}, ${r.family}, ${r.bank}, ${r.installments})
        ON CONFLICT (bin) DO UPDATE SET brand = excluded.brand, family = excluded.family, bank = excluded.bank,
          installments = excluded.installments`;
    },
  };
}
