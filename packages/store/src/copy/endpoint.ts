import type { CopyRow, CopyValue } from "./rows";
import type { CopyTable } from "./tables";

/** Where an interrupted copy stopped in one table: the last key written and the rows so far. */
export interface TableProgress {
  table: string;
  lastKey: CopyValue[] | null;
  rows: number;
}

/** The resume record a copy keeps in its target until it has verified. */
export interface CopyProgress {
  /** The source it copies from (a file path, or a URL without its password). */
  source: string;
  tables: Map<string, TableProgress>;
}

/**
 * One side of a copy: a SQLite file or a PostgreSQL database, seen through the copy's table
 * catalogue. Reads return normalized rows in key order; a write commits a batch and its
 * progress together, so a copy killed at any point resumes exactly where it stopped.
 */
export interface CopyEndpoint {
  readonly kind: "sqlite" | "postgres";
  /** A file path, or the URL without its password. */
  readonly label: string;
  /** The schema version found, and the latest this code knows. */
  schemaVersion(): Promise<{ found: number; latest: number }>;
  /** Applies pending migrations (a target only). */
  migrate(): Promise<void>;
  /** Every table of the database with its column names. */
  tables(): Promise<Map<string, string[]>>;
  /**
   * Starts one read-only snapshot every later `count` and `read` sees, so a copy from a
   * database `tminus serve` keeps writing is of one instant, and verifiable. Returns
   * PostgreSQL's exported snapshot id (for `pg_dump --snapshot`, so a dump and its manifest
   * see the same rows); null for SQLite.
   */
  beginSnapshot(): Promise<string | null>;
  endSnapshot(): Promise<void>;
  count(table: CopyTable): Promise<number>;
  /** Up to `limit` rows with a key after `after` (from the start when null), in key order. */
  read(table: CopyTable, after: CopyValue[] | null, limit: number): Promise<CopyRow[]>;
  /** Inserts rows and records `progress` in one transaction. */
  write(table: CopyTable, rows: CopyRow[], progress: TableProgress): Promise<void>;
  /** The resume record, or null when this database holds no unfinished copy. */
  readProgress(): Promise<CopyProgress | null>;
  /** Creates an empty resume record for a copy from `source`. */
  startProgress(source: string): Promise<void>;
  /** Removes the resume record (the copy verified). */
  finishProgress(): Promise<void>;
  /** Deletes every row of these tables (children first) and any resume record: `--force`. */
  clear(tables: readonly CopyTable[]): Promise<void>;
  close(): Promise<void>;
}
