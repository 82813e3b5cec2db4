import { createRequire } from "node:module";
import { CodedError } from "../contract/common";

/** What a query answers: the rows and, for writes, how many rows it touched. */
export interface PgQueryResult<R> {
  rows: R[];
  rowCount: number | null;
}

/**
 * A statement sent by name, as node-postgres' query config object: the driver parses it once
 * per connection (Parse with this name) and afterwards only binds and executes it. The adapter
 * passes one only with `preparedStatements` on (the default), and `name` is unique per `text`.
 */
export interface PgQueryConfig {
  name: string;
  text: string;
  values: unknown[];
}

/**
 * The slice of a node-postgres `PoolClient` the adapter calls: one connection checked out of
 * the pool, for a transaction. Declared structurally (as kysely does), so the public types do
 * not depend on `pg` and any driver with this shape fits.
 */
export interface PgPoolClient {
  // biome-ignore lint/suspicious/noExplicitAny: pg declares its rows as any; callers narrow.
  query<R = any>(text: string, values?: unknown[]): Promise<PgQueryResult<R>>;
  /** A named (prepared) statement; see `PgQueryConfig`. */
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  query<R = any>(config: PgQueryConfig): Promise<PgQueryResult<R>>;
  /** Returns the connection to the pool; a truthy argument destroys it instead. */
  release(destroy?: Error | boolean): void;
}

/**
 * The slice of a node-postgres `Pool` the adapter calls (a `pg.Pool` is one). With
 * `preparedStatements` on, `query` is also called with a `PgQueryConfig` (name, text, values).
 */
export interface PgPool {
  // biome-ignore lint/suspicious/noExplicitAny: pg declares its rows as any; callers narrow.
  query<R = any>(text: string, values?: unknown[]): Promise<PgQueryResult<R>>;
  /** A named (prepared) statement; see `PgQueryConfig`. */
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  query<R = any>(config: PgQueryConfig): Promise<PgQueryResult<R>>;
  connect(): Promise<PgPoolClient>;
  end(): Promise<void>;
}

/** Codes of the errors the PostgreSQL adapter throws while it gets ready. */
export type PostgresStoreErrorCode = "driver_missing" | "schema_newer" | "schema_outdated";

/** Why a PostgreSQL store cannot be used: one line, meant to be shown as it is. */
export class PostgresStoreError extends CodedError<PostgresStoreErrorCode> {
  constructor(code: PostgresStoreErrorCode, message: string) {
    super("PostgresStoreError", code, message);
  }
}

/** Options the adapter passes when it creates the pool itself. */
export interface PgPoolConfig {
  connectionString: string;
  max?: number;
}

/** The part of the `pg` module the adapter uses. */
interface PgModule {
  Pool: new (config: PgPoolConfig) => PgPool;
}

/**
 * Loads `pg` when a store is made from a connection string, so SQLite-only users never need it
 * installed. Synchronous on purpose: a missing driver throws at the call site. `require` is made
 * from this module's URL (tsup shims `import.meta.url` in the CJS build), so `pg` resolves from
 * where @tminus/store is installed, as its optional peer dependency.
 */
export function loadPg(): PgModule {
  let mod: unknown;
  try {
    mod = createRequire(import.meta.url)("pg");
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const missing = code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND";
    // Only `pg` itself: a broken install (pg present, one of its files missing) is a fault.
    if (missing && /['"]pg['"]/.test(String((error as Error).message))) {
      throw new PostgresStoreError(
        "driver_missing",
        "tminus postgres store: the PostgreSQL driver is not installed; run `npm install pg` (an optional peer dependency of @tminus/store)",
      );
    }
    throw error;
  }
  // pg is CommonJS; a bundler's interop may wrap it in { default }.
  const pg = mod as PgModule & { default?: PgModule };
  return pg.Pool ? pg : (pg.default as PgModule);
}
