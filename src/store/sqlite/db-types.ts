/**
 * The one driver interface. `bun:sqlite` backs the compiled binary and Bun test runs,
 * `better-sqlite3` backs Node test runs; only driver-*.ts import a driver.
 * Parameters are positional (`?`) and never `undefined` (pass null), so both drivers bind alike.
 */
export type SqlValue = string | number | bigint | null | Uint8Array;

export interface Statement {
  run(...params: SqlValue[]): { changes: number };
  get<T = Record<string, unknown>>(...params: SqlValue[]): T | undefined;
  all<T = Record<string, unknown>>(...params: SqlValue[]): T[];
}

export interface Db {
  readonly driver: "bun" | "node";
  /** Prepared statements are cached per SQL text by the wrapper. */
  prepare(sql: string): Statement;
  exec(sql: string): void;
  /** True while a transaction is open on the connection (SQLite's autocommit is off). */
  inTransaction(): boolean;
  close(): void;
}
