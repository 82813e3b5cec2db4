import type { SqliteDatabase, SqliteStatement } from "./database";

/** Reads one usage counter: `(account_id, environment, cycle_id, metric)` -> `{ total }`. */
export function usageRead(db: SqliteDatabase): SqliteStatement {
  return db.prepare(
    `SELECT total FROM usage_counters
     WHERE account_id = ? AND environment = ? AND cycle_id = ? AND metric = ?`,
  );
}
