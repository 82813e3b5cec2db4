/**
 * @tminus/store: the async persistence contract of tminus (`Store`), its SQLite and PostgreSQL
 * adapters and, in `test/store-suite.ts` (`@tminus/store/conformance`), the conformance suite
 * every adapter passes.
 */

export * from "./contract";
export * from "./copy";
export { uuidv7, uuidv7Time } from "./ids";
export {
  assertPostgresSchema,
  migratePostgres,
  type PgPool,
  type PgPoolClient,
  type PgPoolConfig,
  type PgQueryResult,
  POSTGRES_MIGRATIONS,
  type PostgresStore,
  PostgresStoreError,
  type PostgresStoreErrorCode,
  type PostgresStoreOptions,
  postgresSchemaVersion,
  postgresStore,
} from "./postgres";
export {
  MIGRATIONS,
  type Migration,
  type SqliteDatabase,
  type SqliteStatement,
  type SqliteStoreOptions,
  type SqliteTransaction,
  sqliteStore,
} from "./sqlite";
