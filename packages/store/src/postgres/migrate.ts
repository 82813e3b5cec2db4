import type { Migration } from "../shared/migration";
import { POSTGRES_MIGRATIONS } from "./migrations";
import { type PgPool, PostgresStoreError } from "./pool";

/**
 * The advisory lock every migrating process takes: "tminus" in ASCII. Session-level, so it
 * spans the migrations' separate transactions; released on unlock or when the connection ends.
 */
const MIGRATION_LOCK = "128013269103987";

/** Named for tminus so that a database shared with another application cannot clash. */
const VERSION_TABLE = "tminus_schema_migrations";

type Runner = Pick<PgPool, "query">;

/** The highest applied migration version, 0 for a database tminus never migrated. Read-only. */
export async function postgresSchemaVersion(db: Runner): Promise<number> {
  const { rows } = await db.query<{ present: boolean }>(
    `SELECT to_regclass('${VERSION_TABLE}') IS NOT NULL AS present`,
  );
  if (!rows[0]?.present) return 0;
  const max = await db.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${VERSION_TABLE}`,
  );
  return max.rows[0]?.version ?? 0;
}

/** The versions recorded as applied; empty for a database tminus never migrated. */
async function appliedVersions(db: Runner): Promise<Set<number>> {
  if ((await postgresSchemaVersion(db)) === 0) return new Set();
  const { rows } = await db.query<{ version: number }>(`SELECT version FROM ${VERSION_TABLE}`);
  return new Set(rows.map((r) => r.version));
}

/**
 * Applies the migrations not applied yet (every missing version, also one below the highest
 * applied: branches number their migrations apart and merge in any order), each in its own
 * transaction, under a session-level advisory lock: processes that start together queue on the lock, and each one re-reads the
 * version after getting it, so every step runs exactly once. Refuses (`schema_newer`) a
 * database a newer tminus migrated. Returns the versions this call applied (none when current).
 *
 * @example
 * await migratePostgres(new pg.Pool({ connectionString })); // `tminus migrate`
 */
export async function migratePostgres(
  pool: Pick<PgPool, "connect">,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<number[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // Every process start comes here: a current schema answers from one read, without the
    // lock or any DDL.
    const before = await postgresSchemaVersion(client);
    assertNotNewer(before, migrations);
    const pending = (done: Set<number>) => migrations.filter((m) => !done.has(m.version));
    if (pending(await appliedVersions(client)).length === 0) return [];
    await client.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${VERSION_TABLE} (
           version integer PRIMARY KEY,
           name text NOT NULL,
           applied_at timestamptz NOT NULL DEFAULT now()
         )`,
      );
      assertNotNewer(await postgresSchemaVersion(client), migrations);
      const applied: number[] = [];
      for (const migration of pending(await appliedVersions(client))) {
        await client.query("BEGIN");
        try {
          await client.query(migration.sql);
          await client.query(`INSERT INTO ${VERSION_TABLE} (version, name) VALUES ($1, $2)`, [
            migration.version,
            migration.name,
          ]);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK");
          throw error;
        }
        applied.push(migration.version);
      }
      return applied;
    } finally {
      // A connection that cannot unlock is in doubt: destroying it releases the lock too.
      await client.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`).catch((error) => {
        broken = error instanceof Error ? error : new Error(String(error));
      });
    }
  } finally {
    client.release(broken);
  }
}

/**
 * For `migrate: false`: fails with one clear line unless the schema is exactly the version
 * this code knows (older: run `tminus migrate`; newer: upgrade tminus).
 */
export async function assertPostgresSchema(
  db: Runner,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<void> {
  const found = await postgresSchemaVersion(db);
  assertNotNewer(found, migrations);
  const expected = latest(migrations);
  const done = await appliedVersions(db);
  if (found < expected || migrations.some((m) => !done.has(m.version))) {
    throw new PostgresStoreError(
      "schema_outdated",
      `tminus postgres store: database schema is at version ${found}, this code needs ${expected}; run \`tminus migrate\` (or open it with migrate: true)`,
    );
  }
}

function assertNotNewer(found: number, migrations: readonly Migration[]): void {
  // A newer schema was written by a newer tminus; running old statements on it could corrupt it.
  if (found > latest(migrations)) {
    throw new PostgresStoreError(
      "schema_newer",
      `tminus postgres store: database schema is at version ${found}, newer than this code knows (${latest(migrations)}); upgrade tminus`,
    );
  }
}

function latest(migrations: readonly Migration[]): number {
  return migrations.at(-1)?.version ?? 0;
}
