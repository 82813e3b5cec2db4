import type { PoolStats, Store } from "../contract";
import { createDb } from "./_db";
import { readGenerations } from "./_generations";
import { createPostgresAccountStore } from "./accounts";
import { createPostgresAnalyticsStore } from "./analytics";
import { createPostgresAssetStore } from "./assets";
import { createHousekeepingQueries } from "./housekeeping";
import { createPostgresLookStore } from "./looks";
import { createPostgresMeteringStore } from "./metering";
import { assertPostgresSchema, migratePostgres } from "./migrate";
import { loadPg, type PgPool } from "./pool";
import { createPostgresTimerStore } from "./timers";
import { createPostgresUserStore } from "./users";
import { createViewerQueries } from "./viewers";
import { createPostgresWebhookStore } from "./webhooks";

export { assertPostgresSchema, migratePostgres, postgresSchemaVersion } from "./migrate";
export { POSTGRES_MIGRATIONS } from "./migrations";
export {
  type PgPool,
  type PgPoolClient,
  type PgPoolConfig,
  type PgQueryConfig,
  type PgQueryResult,
  PostgresStoreError,
  type PostgresStoreErrorCode,
} from "./pool";

/**
 * Options of `postgresStore`: a pool you made (any object with `pg.Pool`'s `query`, `connect`
 * and `end`), or a connection string for a pool the store makes and ends itself.
 */
export type PostgresStoreOptions = (
  | { pool: PgPool }
  | {
      connectionString: string;
      /** Connections of the pool the store makes (pg's default: 10). */
      max?: number;
    }
) & {
  /**
   * Send the hot statements (key lookup, rate-limit reservation, timer reads, creates and
   * changes, usage, the request log, viewers) as named prepared statements, so each connection
   * parses and plans them once instead of on every execution (default true). Turn it off
   * behind a pooler in transaction mode that does not track prepared statements: PgBouncer
   * before 1.21, or 1.21 and newer with `max_prepared_statements = 0` (see
   * docs/store-adapters.md). Off, every statement is sent unnamed. A pool of your own must
   * accept node-postgres' `{ name, text, values }` query config when it is on.
   */
  preparedStatements?: boolean;
  /**
   * Apply pending schema migrations before the first statement (default true). With false the
   * store only checks the schema version and fails (`schema_outdated`, `schema_newer`) unless
   * it is exactly the one this code knows: for processes that leave migrations to `tminus
   * migrate`.
   */
  migrate?: boolean;
};

/** A PostgreSQL `Store`, with a way to wait until it is usable. */
export interface PostgresStore extends Store {
  /**
   * Resolves once the schema is migrated (or checked); rejects with the reason the store cannot
   * be used (a `PostgresStoreError` or the connection's error). Every method waits for the
   * same thing, so awaiting it is optional: it lets a server fail at start instead of at its
   * first request.
   */
  ready(): Promise<void>;
}

/**
 * The `Store` for several processes on one PostgreSQL database (13 or newer). Synchronous like
 * `sqliteStore`: migrations (under an advisory lock, safe when processes start together) begin
 * at once, and every method awaits them before its first statement. A missing `pg` driver
 * throws here, at the call site. `close()` ends the pool only when the store made it.
 *
 * @example
 * const store = postgresStore({ connectionString: process.env.TMINUS_DATABASE_URL! });
 * await store.ready(); // optional: fail fast on a bad URL or a newer schema
 */
export function postgresStore(options: PostgresStoreOptions): PostgresStore {
  const owned = !("pool" in options);
  const pool: PgPool =
    "pool" in options ? options.pool : createPool(options.connectionString, options.max);
  const ready = (
    options.migrate === false ? assertPostgresSchema(pool) : migratePostgres(pool)
  ).then(() => undefined);
  // Every call reports a failed start; an unused store must not crash the process with an
  // unhandled rejection.
  ready.catch(() => {});
  let closed = false;
  const db = createDb(
    () => {
      if (closed) throw new Error("tminus postgres store: the store is closed");
      return pool;
    },
    ready,
    { preparedStatements: options.preparedStatements ?? true },
  );
  return {
    kind: "postgres",
    ...createPostgresAccountStore(db),
    ...createPostgresTimerStore(db),
    ...createPostgresMeteringStore(db),
    ...createViewerQueries(db),
    ...createPostgresAnalyticsStore(db),
    ...createPostgresWebhookStore(db),
    ...createHousekeepingQueries(db),
    ...createPostgresUserStore(db),
    ...createPostgresLookStore(db),
    ...createPostgresAssetStore(db),
    readGenerations: () => readGenerations(db),
    ready: () => ready,
    async checkReady() {
      if (closed) throw new Error("tminus postgres store: the store is closed");
      await ready;
      // Read-only: a process that migrated at start still checks that no newer tminus has
      // migrated the database since, and that the server answers at all.
      await assertPostgresSchema(pool);
    },
    poolStats: () => poolStatsOf(pool),
    async close() {
      if (closed) return;
      closed = true;
      // Let a running migration finish before the pool goes away.
      await ready.catch(() => {});
      if (owned) await pool.end();
    },
  };
}

/** node-postgres' counters, when the pool is a `pg.Pool` (a pool you made may not have them). */
function poolStatsOf(pool: PgPool): PoolStats {
  const p = pool as PgPool & { totalCount?: number; idleCount?: number; waitingCount?: number };
  return { total: p.totalCount ?? 0, idle: p.idleCount ?? 0, waiting: p.waitingCount ?? 0 };
}

function createPool(connectionString: string, max?: number): PgPool {
  const { Pool } = loadPg();
  const pool = new Pool({ connectionString, ...(max !== undefined ? { max } : {}) });
  // pg emits "error" when an idle connection dies (a server restart): it drops that connection
  // and the next query opens a new one. Without a listener the event would crash the process.
  (pool as PgPool & { on?(event: "error", listener: () => void): unknown }).on?.("error", () => {});
  return pool;
}
