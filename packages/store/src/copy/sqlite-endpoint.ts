import { existsSync } from "node:fs";
import { applyPragmas, openDatabase, type SqliteDatabase } from "../sqlite/database";
import { migrate, schemaVersion } from "../sqlite/migrate";
import { MIGRATIONS } from "../sqlite/migrations";
import { progressFrom, quote } from "./_sql";
import type { CopyEndpoint } from "./endpoint";
import { type CopyRow, type CopyValue, normalizeRow } from "./rows";
import { type CopyTable, PROGRESS_TABLE } from "./tables";

/** Options of `sqliteCopyEndpoint`. */
export interface SqliteCopyEndpointOptions {
  path: string;
  /** A source must exist; a target is created (with its folders) when missing. */
  mustExist?: boolean;
}

/**
 * A SQLite file as one side of a copy or a verification. Its snapshot is a read transaction:
 * in WAL mode a running `tminus serve` keeps writing beside it, unseen.
 *
 * @example
 * const from = sqliteCopyEndpoint({ path: ".tminus/tminus.db", mustExist: true });
 */
export function sqliteCopyEndpoint(options: SqliteCopyEndpointOptions): CopyEndpoint {
  if (options.mustExist && !existsSync(options.path)) {
    throw new Error(`no SQLite database at ${options.path}`);
  }
  const db = openDatabase(options.path);
  try {
    applyPragmas(db);
  } catch (error) {
    db.close();
    throw error;
  }
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  const readers = new Map<string, (after: CopyValue[] | null, limit: number) => unknown[]>();
  const reader = (table: CopyTable) => {
    let read = readers.get(table.name);
    if (!read) {
      read = prepareReader(db, table);
      readers.set(table.name, read);
    }
    return read;
  };
  return {
    kind: "sqlite",
    label: options.path,
    async schemaVersion() {
      return { found: schemaVersion(db), latest };
    },
    async migrate() {
      migrate(db);
    },
    async tables() {
      const names = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all() as { name: string }[];
      const out = new Map<string, string[]>();
      for (const { name } of names) {
        const columns = db.prepare(`PRAGMA table_info(${quote(name)})`).all() as { name: string }[];
        out.set(
          name,
          columns.map((c) => c.name),
        );
      }
      return out;
    },
    async beginSnapshot() {
      // Deferred: the snapshot is taken by the first read, which follows at once.
      db.exec("BEGIN");
      db.prepare("SELECT count(*) FROM sqlite_master").get();
      return null;
    },
    async endSnapshot() {
      db.exec("COMMIT");
    },
    async count(table) {
      const row = db.prepare(`SELECT count(*) AS n FROM ${quote(table.name)}`).get() as {
        n: number;
      };
      return row.n;
    },
    async read(table, after, limit) {
      const rows = reader(table)(after, limit) as Record<string, unknown>[];
      return rows.map((r) => normalizeRow(table, r));
    },
    async write(table, rows, progress) {
      const names = table.columns.map((c) => quote(c.name)).join(", ");
      const marks = table.columns.map(() => "?").join(", ");
      const insert = db.prepare(`INSERT INTO ${quote(table.name)} (${names}) VALUES (${marks})`);
      const record = db.prepare(
        `UPDATE ${PROGRESS_TABLE} SET last_key = ?, rows = ? WHERE table_name = ?`,
      );
      db.transaction(() => {
        for (const row of rows) insert.run(...toSqlite(table, row));
        const done = record.run(JSON.stringify(progress.lastKey), progress.rows, table.name);
        if (done.changes === 0) {
          db.prepare(
            `INSERT INTO ${PROGRESS_TABLE} (table_name, last_key, rows) VALUES (?, ?, ?)`,
          ).run(table.name, JSON.stringify(progress.lastKey), progress.rows);
        }
      }).immediate();
    },
    async readProgress() {
      const present = db
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
        .get(PROGRESS_TABLE);
      if (!present) return null;
      const rows = db.prepare(`SELECT table_name, last_key, rows FROM ${PROGRESS_TABLE}`).all() as {
        table_name: string;
        last_key: string | null;
        rows: number;
      }[];
      return progressFrom(rows);
    },
    async startProgress(source) {
      db.transaction(() => {
        db.exec(
          `CREATE TABLE ${PROGRESS_TABLE} (table_name TEXT PRIMARY KEY, last_key TEXT, rows INTEGER NOT NULL) STRICT`,
        );
        db.prepare(
          `INSERT INTO ${PROGRESS_TABLE} (table_name, last_key, rows) VALUES (?, NULL, 0)`,
        ).run(`source:${source}`);
      }).immediate();
    },
    async finishProgress() {
      db.exec(`DROP TABLE IF EXISTS ${PROGRESS_TABLE}`);
    },
    async clear(tables) {
      db.transaction(() => {
        for (const table of [...tables].reverse()) db.exec(`DELETE FROM ${quote(table.name)}`);
        db.exec(`DROP TABLE IF EXISTS ${PROGRESS_TABLE}`);
      }).immediate();
    },
    async close() {
      db.close();
    },
  };
}

/** A keyset reader over the table's key (its primary key or a unique index). */
function prepareReader(db: SqliteDatabase, table: CopyTable) {
  const columns = table.columns.map((c) => quote(c.name)).join(", ");
  const order = table.key.map(quote).join(", ");
  const from = `SELECT ${columns} FROM ${quote(table.name)}`;
  const first = db.prepare(`${from} ORDER BY ${order} LIMIT ?`);
  const marks = table.key.map(() => "?").join(", ");
  // A row value comparison walks the index from the key on, as the ORDER BY does.
  const next = db.prepare(`${from} WHERE (${order}) > (${marks}) ORDER BY ${order} LIMIT ?`);
  return (after: CopyValue[] | null, limit: number) =>
    after === null ? first.all(limit) : next.all(...after, limit);
}

function toSqlite(table: CopyTable, row: CopyRow): unknown[] {
  return row.map((value, n) => {
    const type = table.columns[n]?.type;
    if (value === null) return null;
    if (type === "bool") return value ? 1 : 0;
    if (type === "textlist") return JSON.stringify(value);
    if (type === "bytes") return Buffer.from(value as string, "base64");
    return value;
  });
}
