import postgres from "postgres";
import { InvariantError } from "../../invariant";
import type { Sensitive } from "../../sensitive";

// The one postgres.js connection setup every PostgreSQL operation file uses (issue 23). Named
// operations take `Pg`: the pool outside units, the transaction inside one, so the same function
// serves `store.q` and `tx`.

export type Pg = postgres.Sql | postgres.TransactionSql;

/**
 * kasa's numbers (epoch ms, kuruş) are bigint columns but JS numbers in the store interface, as
 * on SQLite: int8 is parsed to a number, and a value past 2^53 is our bug, never a rounded amount.
 * Sums that may pass 2^53 (settlement, connection usage) are cast to text in SQL and read as
 * BigInt by their operation, as the SQLite operations do.
 */
const int8 = {
  to: 20,
  from: [20],
  serialize: (value: number | bigint) => String(value),
  parse: (text: string) => {
    const n = Number(text);
    if (!Number.isSafeInteger(n)) throw new InvariantError(`bigint ${text} is past 2^53; read it as text`);
    return n;
  },
};

export function connectPg(url: string, max = 10, password: Sensitive<string> | null = null): postgres.Sql {
  return postgres(url, { max, types: { int8 }, onnotice: () => {}, ...(password === null ? {} : { password: password.reveal() }) });
}
