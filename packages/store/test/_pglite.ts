import { PGlite, types } from "@electric-sql/pglite";
import type { PgPool, PgPoolClient, PgQueryConfig, PgQueryResult } from "../src/postgres";

/**
 * A PGlite database (PostgreSQL compiled to WebAssembly, in this process) that reads values as
 * node-postgres does: int8 and numeric as strings (pg keeps them exact; PGlite would make
 * numbers), the rest (int4, json, arrays, timestamps) already match.
 */
export async function createPglite(): Promise<PGlite> {
  return PGlite.create({
    parsers: { [types.INT8]: (value: string) => value, [types.NUMERIC]: (value: string) => value },
  });
}

/** The one connection of a PGlite database: its queue and the search_path it is set to now. */
interface Connection {
  tail: Promise<void>;
  searchPath: string | null;
}
const connections = new WeakMap<PGlite, Connection>();

/**
 * `pg.Pool`'s slice (`PgPool`) over one PGlite connection. A checked-out client holds the
 * connection until it is released, and pool queries queue behind it, so a transaction sees only
 * its own statements: the pool behaves as a pg pool of size 1. Pools over one database share
 * its queue; one made with a `searchPath` sets it whenever it takes the connection, as a pg pool
 * whose URL says `options=-c search_path=...` would. A statement without values goes through the
 * simple protocol, as pg sends it, so a migration's several statements run in one call.
 *
 * A named statement (`{ name, text, values }`, what the store sends with `preparedStatements`
 * on) runs as its text: PGlite's `query` has no named statements (it parses and plans the
 * unnamed one on every call). So the store's named path runs here, minus the server keeping
 * the plan; postgres.test.ts checks on the real server that the names reach it.
 */
export function pglitePool(db: PGlite, options: { searchPath?: string } = {}): PgPool {
  const wanted = options.searchPath ?? DEFAULT_SEARCH_PATH;
  const connection = connections.get(db) ?? { tail: Promise.resolve(), searchPath: null };
  connections.set(db, connection);
  /** Waits for the connection; the answer frees it. FIFO, like pg's queue of waiting clients. */
  const acquire = async (): Promise<() => void> => {
    let free!: () => void;
    const turn = new Promise<void>((resolve) => {
      free = resolve;
    });
    const before = connection.tail;
    connection.tail = before.then(() => turn);
    await before;
    try {
      if (connection.searchPath !== wanted) {
        await db.exec(`SET search_path TO ${wanted}`);
        connection.searchPath = wanted;
      }
    } catch (error) {
      free();
      throw error;
    }
    return free;
  };
  const run = async <R>(
    statement: string | PgQueryConfig,
    params?: unknown[],
  ): Promise<PgQueryResult<R>> => {
    const text = typeof statement === "string" ? statement : statement.text;
    const values = typeof statement === "string" ? params : statement.values;
    if (values === undefined || values.length === 0) {
      const results = await db.exec(text);
      const last = results.at(-1);
      return { rows: (last?.rows ?? []) as R[], rowCount: rowCountOf(last) };
    }
    const result = await db.query<R>(text, values);
    return { rows: result.rows, rowCount: rowCountOf(result) };
  };

  return {
    async query<R>(statement: string | PgQueryConfig, values?: unknown[]) {
      const free = await acquire();
      try {
        return await run<R>(statement, values);
      } finally {
        free();
      }
    },
    async connect(): Promise<PgPoolClient> {
      const free = await acquire();
      let released = false;
      return {
        query: <R>(statement: string | PgQueryConfig, values?: unknown[]) => {
          if (released) throw new Error("pglitePool: query on a released client");
          return run<R>(statement, values);
        },
        release() {
          // One connection cannot be destroyed and replaced: a client whose ROLLBACK failed
          // (pg would destroy it) just gives the connection back.
          if (released) return;
          released = true;
          free();
        },
      };
    },
    // The database belongs to the caller, as a pool you pass to postgresStore does.
    async end() {},
  };
}

/** PostgreSQL's default search_path. */
const DEFAULT_SEARCH_PATH = `"$user", public`;

/** pg's rowCount: the rows a statement returned or changed (null for a statement with none). */
function rowCountOf(result: { rows: unknown[]; rowCount?: number } | undefined): number | null {
  if (!result) return null;
  return result.rowCount ?? result.rows.length;
}
