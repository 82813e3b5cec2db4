/**
 * @tminus/store: the async persistence contract of tminus (`Store`), its SQLite adapter and,
 * in `test/store-suite.ts`, the conformance suite every adapter passes.
 */

export {
  MIGRATIONS,
  type Migration,
  type SqliteDatabase,
  type SqliteStatement,
  type SqliteStoreOptions,
  type SqliteTransaction,
  sqliteStore,
} from "./sqlite";
export * from "./types";
