import type { SqliteDatabase } from "./database";
import { MIGRATIONS, type Migration } from "./migrations";

const CREATE_TABLE =
  "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL) STRICT";

/** The highest applied migration version, 0 for a fresh database. */
export function schemaVersion(db: SqliteDatabase): number {
  // Read-only on purpose: `migrate: false` must not write to a database it was not asked to.
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!table) return 0;
  const row = db.prepare("SELECT max(version) AS version FROM schema_migrations").get() as {
    version: number | null;
  };
  return row.version ?? 0;
}

/**
 * Applies the migrations not applied yet, each in its own IMMEDIATE transaction that re-checks
 * the version under the write lock, so two processes opening one file apply each step once.
 * Returns the versions this call applied (none on reopen).
 */
export function migrate(
  db: SqliteDatabase,
  migrations: readonly Migration[] = MIGRATIONS,
): number[] {
  assertNotNewer(db, migrations);
  db.exec(CREATE_TABLE);
  const isApplied = db.prepare("SELECT 1 FROM schema_migrations WHERE version = ?");
  const record = db.prepare("INSERT INTO schema_migrations (version, name) VALUES (?, ?)");
  const applied: number[] = [];
  const step = db.transaction((migration: Migration) => {
    if (isApplied.get(migration.version)) return;
    db.exec(migration.sql);
    record.run(migration.version, migration.name);
    applied.push(migration.version);
  });
  for (const migration of migrations) step.immediate(migration);
  return applied;
}

/** For `migrate: false`: fails clearly when the schema is not exactly what this code expects. */
export function assertMigrated(
  db: SqliteDatabase,
  migrations: readonly Migration[] = MIGRATIONS,
): void {
  assertNotNewer(db, migrations);
  const expected = latest(migrations);
  const found = schemaVersion(db);
  if (found < expected) {
    throw new Error(
      `tminus sqlite store: database schema is at version ${found}, this code needs ${expected}; open it with migrate: true`,
    );
  }
}

function assertNotNewer(db: SqliteDatabase, migrations: readonly Migration[]): void {
  const found = schemaVersion(db);
  // A newer schema was written by a newer tminus; running old statements on it could corrupt it.
  if (found > latest(migrations)) {
    throw new Error(
      `tminus sqlite store: database schema is at version ${found}, newer than this code knows (${latest(migrations)})`,
    );
  }
}

function latest(migrations: readonly Migration[]): number {
  return migrations.at(-1)?.version ?? 0;
}
