import { migratePostgres, postgresSchemaVersion } from "../postgres/migrate";
import { POSTGRES_MIGRATIONS } from "../postgres/migrations";
import type { PgPool, PgPoolClient } from "../postgres/pool";
import { progressFrom, quote } from "./_sql";
import type { CopyEndpoint } from "./endpoint";
import { type CopyRow, normalizeRow } from "./rows";
import { type CopyTable, PROGRESS_TABLE } from "./tables";

/** Options of `postgresCopyEndpoint`: a pool the caller made (and ends after `close`). */
export interface PostgresCopyEndpointOptions {
  pool: PgPool;
  /** How to name the database in messages and in the resume record: no password in it. */
  label: string;
}

/** Bind parameters one INSERT may carry (PostgreSQL's limit is 65,535). */
const MAX_PARAMS = 60_000;

/**
 * A PostgreSQL database (the pool's `search_path` schema) as one side of a copy or a
 * verification. Its snapshot is one REPEATABLE READ READ ONLY transaction on a connection of
 * its own, so processes writing meanwhile are not seen.
 *
 * @example
 * const to = postgresCopyEndpoint({ pool: new pg.Pool({ connectionString }), label: "postgres://db/tminus" });
 */
export function postgresCopyEndpoint(options: PostgresCopyEndpointOptions): CopyEndpoint {
  const { pool } = options;
  let snapshot: PgPoolClient | null = null;
  const reader = () => snapshot ?? pool;
  const latest = POSTGRES_MIGRATIONS.at(-1)?.version ?? 0;
  return {
    kind: "postgres",
    label: options.label,
    async schemaVersion() {
      return { found: await postgresSchemaVersion(pool), latest };
    },
    async migrate() {
      await migratePostgres(pool);
    },
    async tables() {
      const { rows } = await pool.query<{ table_name: string; column_name: string }>(
        `SELECT c.table_name, c.column_name
           FROM information_schema.columns c
           JOIN information_schema.tables t USING (table_schema, table_name)
          WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
          ORDER BY c.table_name, c.ordinal_position`,
      );
      const out = new Map<string, string[]>();
      for (const row of rows) {
        const columns = out.get(row.table_name) ?? [];
        columns.push(row.column_name);
        out.set(row.table_name, columns);
      }
      return out;
    },
    async beginSnapshot() {
      snapshot = await pool.connect();
      await snapshot.query("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      const { rows } = await snapshot.query<{ id: string }>("SELECT pg_export_snapshot() AS id");
      return rows[0]?.id ?? null;
    },
    async endSnapshot() {
      const client = snapshot;
      snapshot = null;
      if (!client) return;
      try {
        await client.query("COMMIT");
        client.release();
      } catch (error) {
        client.release(true);
        throw error;
      }
    },
    async count(table) {
      const { rows } = await reader().query<{ n: string }>(
        `SELECT count(*) AS n FROM ${quote(table.name)}`,
      );
      return Number(rows[0]?.n ?? 0);
    },
    async read(table, after, limit) {
      const columns = table.columns
        .map((c) =>
          // json and jsonb as their text: the driver would parse them into objects.
          c.type === "json" || c.type === "jsonmap"
            ? `${quote(c.name)}::text AS ${quote(c.name)}`
            : quote(c.name),
        )
        .join(", ");
      const order = table.key.map(quote).join(", ");
      const params: unknown[] = after === null ? [] : [...after];
      const where =
        after === null
          ? ""
          : `WHERE (${order}) > (${table.key.map((_, n) => `$${n + 1}`).join(", ")})`;
      params.push(limit);
      const { rows } = await reader().query<Record<string, unknown>>(
        `SELECT ${columns} FROM ${quote(table.name)} ${where} ORDER BY ${order} LIMIT $${params.length}`,
        params,
      );
      return rows.map((r) => normalizeRow(table, r));
    },
    async write(table, rows, progress) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        const perStatement = Math.max(1, Math.floor(MAX_PARAMS / table.columns.length));
        for (let at = 0; at < rows.length; at += perStatement) {
          await insertRows(client, table, rows.slice(at, at + perStatement));
        }
        await client.query(
          `INSERT INTO ${PROGRESS_TABLE} (table_name, last_key, rows) VALUES ($1, $2, $3)
           ON CONFLICT (table_name) DO UPDATE SET last_key = EXCLUDED.last_key, rows = EXCLUDED.rows`,
          [table.name, JSON.stringify(progress.lastKey), progress.rows],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK").catch((e) => {
          broken = e instanceof Error ? e : new Error(String(e));
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async readProgress() {
      const { rows: present } = await pool.query<{ present: boolean }>(
        `SELECT to_regclass('${PROGRESS_TABLE}') IS NOT NULL AS present`,
      );
      if (!present[0]?.present) return null;
      const { rows } = await pool.query<{
        table_name: string;
        last_key: string | null;
        rows: string;
      }>(`SELECT table_name, last_key, rows FROM ${PROGRESS_TABLE}`);
      return progressFrom(rows);
    },
    async startProgress(source) {
      await pool.query(
        `CREATE TABLE ${PROGRESS_TABLE} (table_name text PRIMARY KEY, last_key text, rows bigint NOT NULL)`,
      );
      await pool.query(
        `INSERT INTO ${PROGRESS_TABLE} (table_name, last_key, rows) VALUES ($1, NULL, 0)`,
        [`source:${source}`],
      );
    },
    async finishProgress() {
      await pool.query(`DROP TABLE IF EXISTS ${PROGRESS_TABLE}`);
    },
    async clear(tables) {
      // One TRUNCATE of them all: foreign keys between them need no order.
      await pool.query(`TRUNCATE ${tables.map((t) => quote(t.name)).join(", ")}`);
      await pool.query(`DROP TABLE IF EXISTS ${PROGRESS_TABLE}`);
    },
    async close() {
      await this.endSnapshot();
    },
  };
}

async function insertRows(client: PgPoolClient, table: CopyTable, rows: CopyRow[]) {
  if (rows.length === 0) return;
  const width = table.columns.length;
  const params: unknown[] = [];
  const files = table.columns.map((c) => c.type === "bytes");
  const tuples = rows.map((row, r) => {
    // Files travel as base64 text between the sides; bytea takes their bytes.
    params.push(
      ...row.map((v, c) => (files[c] && v !== null ? Buffer.from(v as string, "base64") : v)),
    );
    return `(${row.map((_, c) => `$${r * width + c + 1}`).join(", ")})`;
  });
  const names = table.columns.map((c) => quote(c.name)).join(", ");
  await client.query(
    `INSERT INTO ${quote(table.name)} (${names}) VALUES ${tuples.join(", ")}`,
    params,
  );
}
