import type postgres from "postgres";

// The connection one batch of units runs its transaction on (group-commit-pg.ts, issue 37): reserved
// from the pool, so that the batch's own statements (BEGIN, each unit's SAVEPOINT) can be sent without
// waiting for each, which postgres.js's `begin` and `savepoint` do. postgres.js tells its own `begin`
// when the connection closes through the connection's `onclose`; this does the same, because a
// statement given to a closed connection is written to its closed socket (a TypeError out of a timer:
// the process would die), and a closed connection handed back to the pool would be taken for an
// open one and hang every query given to it. So a closed connection takes no more statements from
// the batch and is never handed back: the pool keeps it with its closed ones and reconnects it.

/** What postgres.js's pool knows a connection by; `onclose` is what its `begin` sets too. */
type PoolConnection = { onclose: ((error: unknown) => void) | null };

export type BatchConnection = {
  /** The reserved connection, for the units' statements. */
  readonly sql: postgres.ReservedSql;
  /** The error the connection closed with, or null while it is open. */
  closed(): unknown;
  /** Sends a statement without waiting for it (nothing once closed): a failure shows at COMMIT. */
  send(statement: string): void;
  /**
   * Hands the connection back to the pool, rolled back first when the batch may have left its
   * transaction open; a closed one stays with the pool's closed connections.
   */
  release(rollBack: boolean): Promise<void>;
};

export async function reserveBatchConnection(pool: postgres.Sql): Promise<BatchConnection> {
  const sql = await pool.reserve();
  let connection: PoolConnection | null = null;
  let closedWith: unknown = null;
  // Called by postgres.js with the connection a statement was written to; `true` keeps the
  // connection where the pool had it, as no `onexecute` at all would.
  const onexecute = (c: PoolConnection): boolean => {
    if (connection === null) {
      connection = c;
      c.onclose = (error) => {
        closedWith = error ?? new Error("the batch's connection closed");
      };
    }
    return true;
  };
  return {
    sql,
    closed: () => closedWith,
    send(statement) {
      if (closedWith !== null) return;
      void sql
        .unsafe(statement, [], { onexecute } as never)
        .execute()
        .catch(() => {});
    },
    async release(rollBack) {
      if (rollBack && closedWith === null) await sql.unsafe("ROLLBACK").catch(() => {});
      if (closedWith !== null) return;
      if (connection !== null) connection.onclose = null;
      sql.release();
    },
  };
}
