import type { SqliteDatabase, SqliteStatement } from "./database";

/**
 * Prepares each variant of a query shape once, on first use, and reuses it after: queries whose
 * SQL depends on the request (sort order, optional keyset clause) still skip re-parsing.
 */
export function statementCache(
  db: SqliteDatabase,
): (key: string, sql: () => string) => SqliteStatement {
  const statements = new Map<string, SqliteStatement>();
  return (key, sql) => {
    let statement = statements.get(key);
    if (!statement) {
      statement = db.prepare(sql());
      statements.set(key, statement);
    }
    return statement;
  };
}
