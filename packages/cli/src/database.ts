import { type Stats, statSync } from "node:fs";
import { dirname } from "node:path";
import type { Store } from "@tminus/store";
import {
  migratePostgres,
  type PgPool,
  POSTGRES_MIGRATIONS,
  PostgresStoreError,
  postgresSchemaVersion,
  postgresStore,
} from "@tminus/store/postgres";
import { MIGRATIONS, sqliteSchemaVersion, sqliteStore } from "@tminus/store/sqlite";
import { makeFolder, rememberNewDatabase } from "./created";
import { CliError } from "./errors";
import { userPath } from "./paths";

/** The embedded database unless `--db`, `TMINUS_DATABASE_URL` or `TMINUS_DB` name another. */
export const DEFAULT_DB = ".tminus/tminus.db";

/** Connections per process when `--pool-size` is not given (pg's own default). */
export const DEFAULT_POOL_SIZE = 10;

/** How long a statement may wait to open or borrow a connection before its request fails. */
export const POOL_WAIT_MS = 30_000;

/** The database a command works on: a SQLite file, or a PostgreSQL connection URL. */
export type DatabaseTarget =
  | { kind: "sqlite"; path: string }
  | {
      kind: "postgres";
      /** The URL as the driver gets it (without tminus' own `prepared_statements`). */
      url: string;
      /** The URL without its password, for messages. */
      label: string;
      /** `?prepared_statements=off` turns them off (a pooler in transaction mode); default on. */
      preparedStatements: boolean;
    };

/** The URL query parameter that turns the store's named prepared statements on or off. */
export const PREPARED_STATEMENTS_PARAM = "prepared_statements";

/**
 * Reads `--db` (else `TMINUS_DATABASE_URL`, else `TMINUS_DB`, else `.tminus/tminus.db`). A
 * `postgres://` or `postgresql://` URL means PostgreSQL; anything else without a scheme is a
 * SQLite file path, relative to where the user ran the command. Another scheme (`mysql://`) is
 * refused rather than taken for a file name. A PostgreSQL URL's `prepared_statements=on|off` is
 * tminus' own setting: taken out of the URL before the driver, pg_dump or psql see it.
 */
export function parseDatabaseTarget(
  value: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): DatabaseTarget {
  const raw = value ?? (env.TMINUS_DATABASE_URL || undefined) ?? (env.TMINUS_DB || undefined);
  const source =
    value !== undefined ? "--db" : env.TMINUS_DATABASE_URL ? "TMINUS_DATABASE_URL" : "TMINUS_DB";
  // Relative paths are relative to where the user ran the command (see paths.ts).
  if (raw === undefined) return { kind: "sqlite", path: userPath(DEFAULT_DB, env) };
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined) return { kind: "sqlite", path: userPath(raw, env) };
  if (scheme !== "postgres" && scheme !== "postgresql") {
    throw new CliError(
      `${source}: unsupported database URL scheme "${scheme}://"; use postgres://user@host:5432/name or a SQLite file path`,
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`${source}: not a valid PostgreSQL URL (postgres://user@host:5432/name)`);
  }
  if (url.pathname.length <= 1) {
    throw new CliError(
      `${source}: the PostgreSQL URL names no database (postgres://user@host:5432/name)`,
    );
  }
  let preparedStatements = true;
  let driverUrl = raw;
  if (url.searchParams.has(PREPARED_STATEMENTS_PARAM)) {
    const values = url.searchParams.getAll(PREPARED_STATEMENTS_PARAM);
    const value = values.at(-1)!.toLowerCase();
    if (values.length > 1 || !SWITCH.has(value)) {
      throw new CliError(
        `${source}: ${PREPARED_STATEMENTS_PARAM} must be given once, as on or off, got "${values.join('", "')}"`,
      );
    }
    preparedStatements = SWITCH.get(value)!;
    url.searchParams.delete(PREPARED_STATEMENTS_PARAM);
    driverUrl = withoutParam(raw, PREPARED_STATEMENTS_PARAM);
  }
  const shown = new URL(url);
  if (shown.password) shown.password = "***";
  for (const name of [...shown.searchParams.keys()]) {
    if (/password/i.test(name)) shown.searchParams.set(name, "***");
  }
  return { kind: "postgres", url: driverUrl, label: shown.toString(), preparedStatements };
}

/**
 * `raw` without the query parameter `name`, the rest byte for byte: re-serialising the URL
 * would write a space as `+`, which libpq (pg_dump, psql) does not read as a space.
 */
function withoutParam(raw: string, name: string): string {
  const at = raw.indexOf("?");
  if (at < 0) return raw;
  const hash = raw.indexOf("#", at);
  const end = hash < 0 ? raw.length : hash;
  const kept = raw
    .slice(at + 1, end)
    .split("&")
    .filter((pair) => pair !== "" && new URLSearchParams(pair).keys().next().value !== name);
  return `${raw.slice(0, at)}${kept.length ? `?${kept.join("&")}` : ""}${raw.slice(end)}`;
}

/** The spellings of `prepared_statements` (libpq-style booleans). */
const SWITCH = new Map([
  ["on", true],
  ["true", true],
  ["1", true],
  ["off", false],
  ["false", false],
  ["0", false],
]);

/** What a command asks of the database it opens. */
export interface OpenOptions {
  /** Apply pending migrations (default true); false only checks that the schema is current. */
  migrate?: boolean;
  /** Shown in pg_stat_activity's application_name: `tminus serve`, `tminus worker`... */
  role?: string;
  /** PostgreSQL connections of this process (default 10). */
  poolSize?: number;
  /**
   * SQLite: refuse a file that does not exist yet, instead of creating it (and its folders).
   * For commands that only read or change what is there: listing keys must not make a database.
   */
  mustExist?: boolean;
}

/** An opened store and how to name its database in messages. */
export interface OpenedDatabase {
  store: Store;
  /** The file path, or the URL without its password. */
  label: string;
  /** The migrations this open applied (empty when none were pending, or with migrate off). */
  applied: number[];
}

/** The versions above `from` (null: a new database) that a migration list brings. */
function pendingVersions(versions: readonly { version: number }[], from: number | null): number[] {
  return versions.map((m) => m.version).filter((v) => v > (from ?? 0));
}

/**
 * Opens the store of a target and makes sure it is usable before returning: the schema is
 * migrated (or checked) and, for PostgreSQL, the server answered. Every failure a user can
 * cause (a server that refuses, a wrong database name, a newer schema, a missing `pg`) is a
 * one-line `CliError`.
 */
export async function openDatabase(
  target: DatabaseTarget,
  options: OpenOptions = {},
): Promise<OpenedDatabase> {
  const migrate = options.migrate ?? true;
  if (target.kind === "sqlite") {
    const found = statOrNull(target.path);
    if (found?.isDirectory()) {
      throw new CliError(`SQLite database ${target.path} is a directory; --db names a file`);
    }
    if (!found && options.mustExist) {
      throw new CliError(
        `no database at ${target.path} (nothing to read there; \`tminus serve\` or \`tminus keys create\` makes one, or pass --db)`,
      );
    }
    const blocked = fileOnTheWay(dirname(target.path));
    if (blocked) {
      throw new CliError(
        `SQLite database ${target.path}: cannot make its folder, ${blocked} is a file`,
      );
    }
    try {
      // Remembered, so a command that then fails leaves no database behind (see created.ts).
      makeFolder(dirname(target.path));
      if (!found) rememberNewDatabase(target.path);
      // Read before opening: opening is what migrates a SQLite file.
      const from = migrate && found ? await sqliteVersionOrNull(target.path) : null;
      const store = sqliteStore({ path: target.path, migrate });
      return {
        store,
        label: target.path,
        applied: migrate ? pendingVersions(MIGRATIONS, from) : [],
      };
    } catch (error) {
      // The store's own wording speaks to library users; say what to run instead.
      const message = oneLine(error)
        .replace(/^tminus sqlite store: /, "")
        .replace(/open it with migrate: true$/, "run `tminus migrate`")
        .replace(/(newer than this code knows \(\d+\))$/, "$1; upgrade tminus");
      throw new CliError(`SQLite database ${target.path}: ${message}`);
    }
  }
  const pool = await createPool(target, options);
  const store = postgresStore({ pool, migrate, preparedStatements: target.preparedStatements });
  let applied: number[] = [];
  try {
    // Another process may migrate at the same moment: this is what this one saw pending.
    if (migrate) applied = pendingVersions(POSTGRES_MIGRATIONS, await postgresSchemaVersion(pool));
    await store.ready();
  } catch (error) {
    await store.close().catch(() => {});
    await pool.end().catch(() => {});
    throw describePostgresError(error, target);
  }
  // The store does not end a pool it was given; this one is the CLI's, so closing ends it.
  const close = store.close;
  return {
    store: Object.assign(store, {
      async close() {
        await close();
        await pool.end();
      },
    }),
    label: target.label,
    applied,
  };
}

/** What `tminus migrate` did: the schema version before and after. */
export interface MigrateResult {
  label: string;
  kind: DatabaseTarget["kind"];
  from: number | null;
  to: number;
  applied: number[];
}

/**
 * Applies pending migrations. PostgreSQL: under the advisory lock, so it is safe while other
 * processes start; reports the versions applied. SQLite: opening the file applies them.
 */
export async function migrateDatabase(target: DatabaseTarget): Promise<MigrateResult> {
  if (target.kind === "sqlite") {
    const from = await sqliteVersionOrNull(target.path);
    const { store, label } = await openDatabase(target, { migrate: true });
    await store.close();
    const to = MIGRATIONS.at(-1)?.version ?? 0;
    // Opening migrated it: what it applied is every version above the one it had.
    return { label, kind: "sqlite", from, to, applied: pendingVersions(MIGRATIONS, from) };
  }
  const pool = await createPool(target, { role: "tminus migrate", poolSize: 1 });
  try {
    const from = await postgresSchemaVersion(pool);
    const applied = await migratePostgres(pool);
    const to = POSTGRES_MIGRATIONS.at(-1)?.version ?? 0;
    return { label: target.label, kind: "postgres", from, to, applied };
  } catch (error) {
    throw describePostgresError(error, target);
  } finally {
    await pool.end().catch(() => {});
  }
}

interface PgModule {
  Pool: new (
    config: Record<string, unknown>,
  ) => PgPool & {
    on(event: "error", listener: (error: Error) => void): unknown;
  };
}

/** A `pg.Pool` for a target, every creation failure a one-line `CliError`. */
export async function createPool(
  target: Extract<DatabaseTarget, { kind: "postgres" }>,
  options: OpenOptions,
): Promise<PgPool> {
  let pg: PgModule;
  try {
    const mod = (await import("pg")) as PgModule & { default?: PgModule };
    pg = mod.Pool ? mod : (mod.default as PgModule);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new CliError(
        "the PostgreSQL driver is not installed; run `npm install pg` next to tminus",
      );
    }
    throw error;
  }
  let pool: InstanceType<PgModule["Pool"]>;
  try {
    pool = new pg.Pool({
      connectionString: target.url,
      max: options.poolSize ?? DEFAULT_POOL_SIZE,
      // pg applies this both to opening a connection and to waiting for a free one. A server
      // that never answers (a firewall dropping packets) fails instead of hanging for the
      // system's TCP timeout, and a burst queued behind the pool waits this long before its
      // requests fail; 10 s failed bursts of 1,000 creates on a loaded 2-core machine.
      connectionTimeoutMillis: POOL_WAIT_MS,
      application_name: options.role ?? "tminus",
    });
  } catch (error) {
    throw new CliError(`PostgreSQL URL ${target.label}: ${oneLine(error)}`);
  }
  // An idle connection that dies (a server restart) is dropped by the pool and replaced on the
  // next query; without a listener the event would crash the process.
  pool.on("error", () => {});
  return pool;
}

/** One line for the operator; the password never appears. */
export function describePostgresError(
  error: unknown,
  target: Extract<DatabaseTarget, { kind: "postgres" }>,
): CliError {
  if (error instanceof CliError) return error;
  if (error instanceof PostgresStoreError) {
    const message = error.message
      .replace(/^tminus postgres store: /, "")
      .replace(/ \(or open it with migrate: true\)$/, "");
    return new CliError(`PostgreSQL ${target.label}: ${message}`);
  }
  const url = new URL(target.url);
  const where = `${url.hostname}:${url.port || "5432"}`;
  const e = error as { code?: string; message?: string; errors?: { code?: string }[] };
  const code = e?.code ?? e?.errors?.[0]?.code;
  const database = decodeURIComponent(url.pathname.slice(1));
  const user = decodeURIComponent(url.username) || "(default user)";
  switch (code) {
    case "ECONNREFUSED":
      return new CliError(
        `cannot connect to PostgreSQL at ${where}: connection refused (is the server running?)`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new CliError(`cannot connect to PostgreSQL: host "${url.hostname}" not found`);
    case "ETIMEDOUT":
      return new CliError(`cannot connect to PostgreSQL at ${where}: timed out`);
    case "3D000":
      return new CliError(
        `PostgreSQL at ${where} has no database "${database}"; create it first (createdb ${database})`,
      );
    case "28P01":
    case "28000":
      return new CliError(`PostgreSQL at ${where} refused user "${user}": ${oneLine(error)}`);
    case "42501":
      return new CliError(
        `PostgreSQL ${target.label}: permission denied (${oneLine(error)}); the user needs to own the database or schema for migrations`,
      );
  }
  if (/timeout/i.test(e?.message ?? "")) {
    return new CliError(`cannot connect to PostgreSQL at ${where}: timed out`);
  }
  return new CliError(`PostgreSQL ${target.label}: ${oneLine(error)}`);
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message || (error as { code?: string })?.code || "unknown error").replace(
    /\s*\n\s*/g,
    " ",
  );
}

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/**
 * The schema version of an existing SQLite file (read only), null when there is none yet.
 * better-sqlite3 is loaded here, not on start: a CLI on PostgreSQL never loads it.
 */
async function sqliteVersionOrNull(path: string): Promise<number | null> {
  if (!statOrNull(path)?.isFile()) return null;
  const { default: Database } = await import("better-sqlite3");
  let db: InstanceType<typeof Database> | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    return sqliteSchemaVersion(db);
  } catch {
    return null; // not a database tminus can read: opening it below says why
  } finally {
    db?.close();
  }
}

/** The nearest existing ancestor of `dir` when it is a file (so the folder cannot be made). */
function fileOnTheWay(dir: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    const found = statOrNull(at);
    if (found) return found.isDirectory() ? null : at;
    if (dirname(at) === at) return null;
  }
}
