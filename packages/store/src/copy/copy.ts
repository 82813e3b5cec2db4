import { CodedError } from "../contract/common";
import type { CopyEndpoint, CopyProgress } from "./endpoint";
import { keyOf } from "./rows";
import { compareSummaries, summarizeTables, type TableComparison } from "./summarize";
import { COPY_TABLES, type CopyTable, UNCOPIED_TABLES } from "./tables";

/** Codes of the refusals and failures of `copyDatabase`. */
export type CopyErrorCode =
  | "same_database"
  | "schema_version"
  | "unknown_table"
  | "unknown_column"
  | "not_empty"
  | "other_copy";

/** Why a copy did not start: one line, meant to be shown as it is. */
export class CopyError extends CodedError<CopyErrorCode> {
  constructor(code: CopyErrorCode, message: string) {
    super("CopyError", code, message);
  }
}

/** Where a running copy is, for a progress bar. */
export interface CopyProgressEvent {
  phase: "copy" | "verify";
  table: string;
  /** Rows of this table done, of `tableTotal`. */
  tableRows: number;
  tableTotal: number;
  /** Rows of all tables done in this phase, of `total`. */
  done: number;
  total: number;
}

/** Options of `copyDatabase`. */
export interface CopyOptions {
  /** Rows per read and per target transaction (default 1,000). */
  batchSize?: number;
  /** Empty a target that holds data (or another copy's unfinished rows) instead of refusing. */
  force?: boolean;
  onProgress?: (event: CopyProgressEvent) => void;
}

/** What a copy did, and its verification table by table. */
export interface CopyReport {
  /** True when it continued an interrupted copy into this target. */
  resumed: boolean;
  /** Rows written by this run (a resumed run skips what the interrupted one wrote). */
  copiedRows: number;
  tables: TableComparison[];
  /** Every table has equal counts and checksums on both sides. */
  ok: boolean;
  /** Wall-clock milliseconds of the copy and of the verification. */
  copyMs: number;
  verifyMs: number;
}

/** Default rows per batch: large enough to amortize a transaction, small enough to resume. */
export const DEFAULT_COPY_BATCH = 1_000;

/**
 * Copies every table of `from` into `to` (SQLite or PostgreSQL, either direction), then
 * verifies counts and checksums per table. The source is read in one snapshot, so a `tminus
 * serve` may keep running on it; the copy is of the instant it started. The target is migrated
 * first and must be empty unless `force`; each batch commits with its resume record, so a
 * copy interrupted at any point continues where it stopped when run again with the same
 * source. The record is removed once the copy verified.
 *
 * Refuses (`CopyError`) a source whose schema is not this code's latest, a database with a
 * table or column this code does not know, and a target already in use.
 *
 * @example
 * const report = await copyDatabase(sqliteCopyEndpoint({ path: "a.db", mustExist: true }), to);
 * if (!report.ok) throw new Error("verification failed");
 */
export async function copyDatabase(
  from: CopyEndpoint,
  to: CopyEndpoint,
  options: CopyOptions = {},
): Promise<CopyReport> {
  const batchSize = options.batchSize ?? DEFAULT_COPY_BATCH;
  if (from.kind === to.kind && from.label === to.label) {
    throw new CopyError("same_database", `--from and --to are the same database (${from.label})`);
  }
  const source = await from.schemaVersion();
  if (source.found !== source.latest) {
    const fix =
      source.found < source.latest ? "run `tminus migrate` on it first" : "upgrade tminus";
    throw new CopyError(
      "schema_version",
      `source ${from.label}: schema is at version ${source.found}, this tminus copies version ${source.latest}; ${fix}`,
    );
  }
  await assertKnownSchema(from, true);
  const unfinished = await from.readProgress();
  if (unfinished) {
    throw new CopyError(
      "other_copy",
      `source ${from.label} is the target of an unfinished copy from ${unfinished.source}; finish that copy first`,
    );
  }
  const target = await to.schemaVersion();
  if (target.found > target.latest) {
    throw new CopyError(
      "schema_version",
      `target ${to.label}: schema is at version ${target.found}, newer than this tminus knows (${target.latest}); upgrade tminus`,
    );
  }
  await assertKnownSchema(to, false);
  await to.migrate();
  await assertKnownSchema(to, true);

  const progress = await prepareTarget(from, to, options.force === true);
  const resumed = progress !== null;
  if (!progress) await to.startProgress(from.label);

  const started = performance.now();
  await from.beginSnapshot();
  try {
    const totals = new Map<string, number>();
    for (const table of COPY_TABLES) totals.set(table.name, await from.count(table));
    const total = [...totals.values()].reduce((a, b) => a + b, 0);
    let done = 0;
    let copiedRows = 0;
    for (const table of COPY_TABLES) {
      const state = progress?.tables.get(table.name);
      let after = state?.lastKey ?? null;
      let tableRows = state?.rows ?? 0;
      const tableTotal = totals.get(table.name) ?? 0;
      done += tableRows;
      const report = () =>
        options.onProgress?.({
          phase: "copy",
          table: table.name,
          tableRows,
          tableTotal,
          done,
          total,
        });
      report();
      // A finished table is read again from its last key too: a resumed run picks up rows the
      // source gained since (verification still catches rows changed in place).
      const perBatch = Math.min(batchSize, table.batchRows ?? batchSize);
      let rows = await from.read(table, after, perBatch);
      while (rows.length > 0) {
        after = keyOf(table, rows.at(-1)!);
        tableRows += rows.length;
        // The next batch is read while this one is written: the two databases work at once.
        const [, next] = await Promise.all([
          to.write(table, rows, { table: table.name, lastKey: after, rows: tableRows }),
          rows.length < perBatch ? [] : from.read(table, after, perBatch),
        ]);
        done += rows.length;
        copiedRows += rows.length;
        report();
        rows = next;
      }
    }
    const copied = performance.now();
    const verified = await verify(from, to, total, options);
    const tables = compareSummaries(verified.source, verified.target);
    const ok = tables.every((t) => t.ok);
    if (ok) await to.finishProgress();
    const copyMs = Math.round(copied - started);
    return {
      resumed,
      copiedRows,
      tables,
      ok,
      copyMs,
      verifyMs: Math.round(performance.now() - copied),
    };
  } finally {
    await from.endSnapshot();
  }
}

/**
 * Sums both sides at once (the source inside its snapshot), so each database reads while the
 * other's rows are hashed; progress counts the rows of both.
 */
async function verify(from: CopyEndpoint, to: CopyEndpoint, total: number, options: CopyOptions) {
  const seen = new Map<string, number>();
  const onSide = (side: string) => (table: CopyTable, rows: number) => {
    seen.set(`${side}:${table.name}`, rows);
    let done = 0;
    for (const n of seen.values()) done += n;
    options.onProgress?.({
      phase: "verify",
      table: table.name,
      tableRows: rows,
      tableTotal: rows,
      done,
      total: total * 2,
    });
  };
  const [source, target] = await Promise.all([
    summarizeTables(from, onSide("source")),
    summarizeTables(to, onSide("target")),
  ]);
  return { source, target };
}

/**
 * Decides what to do with the target: resume its unfinished copy from this source, empty it
 * (`force`), or refuse because it holds data. Returns the record to resume from, or null.
 */
async function prepareTarget(
  from: CopyEndpoint,
  to: CopyEndpoint,
  force: boolean,
): Promise<CopyProgress | null> {
  const progress = await to.readProgress();
  if (progress && progress.source === from.label && !force) return progress;
  if (progress && !force) {
    throw new CopyError(
      "other_copy",
      `target ${to.label} holds an unfinished copy from ${progress.source}; run that copy again to resume it, or pass --force to empty the target and start over`,
    );
  }
  if (!force) {
    const filled: string[] = [];
    for (const table of COPY_TABLES) {
      const n = await to.count(table);
      if (n > 0) filled.push(`${table.name}: ${n}`);
    }
    if (filled.length > 0) {
      throw new CopyError(
        "not_empty",
        `target ${to.label} is not empty (${filled.slice(0, 4).join(", ")}${filled.length > 4 ? ", ..." : ""}); pass --force to delete its data and copy over it`,
      );
    }
    return null;
  }
  await to.clear(COPY_TABLES);
  return null;
}

/**
 * Fails unless every table of the database is one the copy knows (copied or deliberately
 * left), with exactly the columns it knows. `complete`: every copied table must be there too.
 */
async function assertKnownSchema(endpoint: CopyEndpoint, complete: boolean): Promise<void> {
  const found = await endpoint.tables();
  const unknown = [...found.keys()].filter(
    (name) => !COPY_TABLES.some((t) => t.name === name) && !(name in UNCOPIED_TABLES),
  );
  if (unknown.length > 0) {
    throw new CopyError(
      "unknown_table",
      `${endpoint.label} has ${unknown.length === 1 ? "a table" : "tables"} this tminus does not know how to copy: ${unknown.join(", ")}`,
    );
  }
  for (const table of COPY_TABLES) {
    const columns = found.get(table.name);
    if (!columns) {
      if (complete) {
        throw new CopyError("unknown_table", `${endpoint.label} has no table ${table.name}`);
      }
      continue;
    }
    const expected = table.columns.map((c) => c.name);
    const extra = columns.filter((c) => !expected.includes(c));
    const missing = expected.filter((c) => !columns.includes(c));
    if (extra.length > 0 || missing.length > 0) {
      const parts = [
        extra.length > 0 ? `unknown ${extra.join(", ")}` : "",
        missing.length > 0 ? `missing ${missing.join(", ")}` : "",
      ].filter(Boolean);
      throw new CopyError(
        "unknown_column",
        `${endpoint.label}: table ${table.name} has columns this tminus does not copy (${parts.join("; ")})`,
      );
    }
  }
}
