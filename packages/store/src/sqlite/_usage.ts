import type { SqliteDatabase, SqliteStatement } from "./database";

/** `(account_id, environment, cycle_id, metric)` += 1, creating the counter at 1. */
export function usageIncrement(db: SqliteDatabase): SqliteStatement {
  return db.prepare(
    `INSERT INTO usage_counters (account_id, environment, cycle_id, metric, total)
     VALUES (?, ?, ?, ?, 1)
     ON CONFLICT (account_id, environment, cycle_id, metric) DO UPDATE SET total = total + 1`,
  );
}

/** Reads one usage counter: `(account_id, environment, cycle_id, metric)` -> `{ total }`. */
export function usageRead(db: SqliteDatabase): SqliteStatement {
  return db.prepare(
    `SELECT total FROM usage_counters
     WHERE account_id = ? AND environment = ? AND cycle_id = ? AND metric = ?`,
  );
}
