import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";

/** The slice of a better-sqlite3 `Statement` the adapter calls (positional or named params). */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

// biome-ignore lint/suspicious/noExplicitAny: better-sqlite3 declares transactions over any[].
type AnyFunction = (...args: any[]) => unknown;
// The same conditional type better-sqlite3 uses, so its Database is assignable to ours.
type ArgumentsOf<F extends AnyFunction> = F extends (...args: infer A) => unknown ? A : never;

/** A better-sqlite3 transaction function; the adapter only ever runs it `immediate`. */
export interface SqliteTransaction<F extends AnyFunction> {
  (...args: ArgumentsOf<F>): ReturnType<F>;
  immediate(...args: ArgumentsOf<F>): ReturnType<F>;
}

/**
 * The slice of a better-sqlite3 `Database` the adapter calls, declared structurally (as kysely
 * does) so users pass their own handle and the public types do not depend on the driver.
 */
export interface SqliteDatabase {
  prepare(source: string): SqliteStatement;
  exec(source: string): unknown;
  transaction<F extends AnyFunction>(fn: F): SqliteTransaction<F>;
  close(): unknown;
}

/** Opens (creating its directory when needed) a database file with better-sqlite3. */
export function openDatabase(path: string): SqliteDatabase {
  // ":memory:" and "" (a private temporary database) have no directory to create.
  if (path !== ":memory:" && path !== "") mkdirSync(dirname(path), { recursive: true });
  return new Database(path);
}

/**
 * Connection settings every store connection needs: WAL lets readers run beside the writer,
 * NORMAL sync is durable across application crashes in WAL mode at a fraction of FULL's
 * fsyncs, foreign keys guard tenant rows, and the busy timeout makes a second process wait
 * for the write lock instead of failing at once.
 */
export function applyPragmas(db: SqliteDatabase): void {
  db.exec(
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;",
  );
  // Checkpoints (the only fsyncs under NORMAL) were most of the cost of a request's writes at
  // the default of 1,000 pages. The hot pages (rate windows, counters, the log's tail) are
  // rewritten constantly, so a longer WAL copies far fewer pages per checkpoint. The WAL is
  // truncated back to 16 MiB after each checkpoint.
  db.exec("PRAGMA wal_autocheckpoint = 8000; PRAGMA journal_size_limit = 16777216;");
}
