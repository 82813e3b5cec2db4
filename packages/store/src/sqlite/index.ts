import type { Store } from "../contract";
import { createGenerations } from "./_generations";
import { groupCommit } from "./_group-commit";
import { createSqliteAccountStore } from "./accounts";
import { createSqliteAnalyticsStore } from "./analytics";
import { createSqliteAssetStore } from "./assets";
import { applyPragmas, openDatabase, type SqliteDatabase } from "./database";
import { createHousekeepingQueries } from "./housekeeping";
import { createSqliteLookStore } from "./looks";
import { createSqliteMeteringStore } from "./metering";
import { assertMigrated, migrate, schemaVersion } from "./migrate";
import { createSqliteTimerStore } from "./timers";
import { createSqliteUserStore } from "./users";
import { createViewerQueries } from "./viewers";
import { createSqliteWebhookStore } from "./webhooks";

export type { SqliteDatabase, SqliteStatement, SqliteTransaction } from "./database";
export { MIGRATIONS, type Migration } from "./migrations";

/**
 * The highest migration applied to a SQLite database, 0 for a fresh one. Reads only, so a
 * read-only handle will do (`tminus migrate` reports what it applied from it).
 */
export function sqliteSchemaVersion(database: SqliteDatabase): number {
  return schemaVersion(database);
}

/** Options of `sqliteStore`: a file path to open, or an open better-sqlite3 handle. */
export type SqliteStoreOptions = ({ path: string } | { database: SqliteDatabase }) & {
  /** Apply pending schema migrations on open (default true); false only checks the version. */
  migrate?: boolean;
};

/**
 * The embedded `Store`: one SQLite file (WAL) through better-sqlite3. Every statement is
 * prepared once; atomic operations are IMMEDIATE transactions, so they hold across processes
 * sharing the file. `close()` closes the database only when the store opened it.
 *
 * @example
 * const store = sqliteStore({ path: ".tminus/tminus.db" });
 * const account = await store.findAccountByName("acme");
 */
export function sqliteStore(options: SqliteStoreOptions): Store {
  const owned = "path" in options;
  const db = owned ? openDatabase(options.path) : options.database;
  try {
    applyPragmas(db);
    if (options.migrate ?? true) migrate(db);
    else assertMigrated(db);
    const write = groupCommit(db);
    const generations = createGenerations(db);
    return {
      kind: "sqlite",
      ...createSqliteAccountStore(db, generations),
      ...createSqliteTimerStore(db, write, generations),
      ...createSqliteMeteringStore(db, write),
      ...createViewerQueries(db, write),
      ...createSqliteAnalyticsStore(db, write),
      ...createSqliteWebhookStore(db, write),
      ...createHousekeepingQueries(db),
      ...createSqliteUserStore(db),
      ...createSqliteLookStore(db),
      ...createSqliteAssetStore(db, generations),
      async readGenerations() {
        return generations.read();
      },
      async checkReady() {
        // Throws on a closed handle, and when another process migrated the file further.
        assertMigrated(db);
      },
      async close() {
        // Commit queued writes first; a handle the caller passed in is the caller's to close.
        write.drain();
        if (owned) db.close();
      },
    };
  } catch (error) {
    if (owned) db.close();
    throw error;
  }
}
