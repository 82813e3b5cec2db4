import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";

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

/** better-sqlite3's default export: opens a database file. */
type SqliteDriver = new (path: string) => SqliteDatabase;

/**
 * Loads better-sqlite3, an optional peer dependency: an application on PostgreSQL installs no
 * native module. Loaded only when the store opens a file itself (a caller's own handle needs
 * none), from where @tminus/store is installed (tsup shims `import.meta.url` in the CJS build).
 * Its absence is one line that says what to install.
 */
function loadDriver(): SqliteDriver {
  let mod: unknown;
  try {
    mod = createRequire(import.meta.url)("better-sqlite3");
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    // Only better-sqlite3 itself: a broken install (one of its files missing) is a fault.
    if (code === "MODULE_NOT_FOUND" && /['"]better-sqlite3['"]/.test((error as Error).message)) {
      throw new Error(
        "tminus sqlite store: the SQLite driver is not installed; run `npm install better-sqlite3@12` (an optional peer dependency of @tminus/store)",
      );
    }
    throw error;
  }
  // CommonJS; a bundler's interop may wrap it in { default }.
  const wrapped = mod as { default?: SqliteDriver };
  return typeof mod === "function" ? (mod as SqliteDriver) : (wrapped.default as SqliteDriver);
}

/** Opens (creating its directory when needed) a database file with better-sqlite3. */
export function openDatabase(path: string): SqliteDatabase {
  const Database = loadDriver();
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
