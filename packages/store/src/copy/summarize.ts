import type { CopyEndpoint } from "./endpoint";
import { type CopyValue, createTableDigest, keyOf } from "./rows";
import { COPY_TABLES, type CopyTable } from "./tables";

/** A table's row count and order-free checksum (see `createTableDigest`). */
export interface TableSummary {
  table: string;
  rows: number;
  checksum: string;
}

/** Rows read per query while summing. */
const SUMMARY_BATCH = 5_000;

/**
 * Counts and checksums every copied table of a database from its normalized rows, the same
 * way for SQLite and PostgreSQL, so two databases (or a database and a backup's manifest)
 * compare table by table. Reads inside the endpoint's snapshot when one is open.
 *
 * @example
 * const before = await summarizeTables(from); // ...copy... then compare with summarizeTables(to)
 */
export async function summarizeTables(
  endpoint: CopyEndpoint,
  onTable?: (table: CopyTable, rows: number) => void,
): Promise<TableSummary[]> {
  const out: TableSummary[] = [];
  for (const table of COPY_TABLES) {
    const digest = createTableDigest();
    let rows = 0;
    let after: CopyValue[] | null = null;
    const perBatch = Math.min(SUMMARY_BATCH, table.batchRows ?? SUMMARY_BATCH);
    for (;;) {
      const batch = await endpoint.read(table, after, perBatch);
      for (const row of batch) digest.add(row);
      rows += batch.length;
      onTable?.(table, rows);
      if (batch.length < perBatch) break;
      after = keyOf(table, batch.at(-1)!);
    }
    out.push({ table: table.name, rows, checksum: digest.hex() });
  }
  return out;
}

/** One table of a comparison: both sides, and whether they match. */
export interface TableComparison {
  table: string;
  source: { rows: number; checksum: string } | null;
  target: { rows: number; checksum: string } | null;
  ok: boolean;
}

/** Compares two lists of summaries table by table (a table missing on one side differs). */
export function compareSummaries(
  source: readonly TableSummary[],
  target: readonly TableSummary[],
): TableComparison[] {
  const names = [...new Set([...source.map((s) => s.table), ...target.map((s) => s.table)])];
  return names.map((table) => {
    const a = source.find((s) => s.table === table) ?? null;
    const b = target.find((s) => s.table === table) ?? null;
    const pick = (s: TableSummary | null) => (s ? { rows: s.rows, checksum: s.checksum } : null);
    const ok = a !== null && b !== null && a.rows === b.rows && a.checksum === b.checksum;
    return { table, source: pick(a), target: pick(b), ok };
  });
}
