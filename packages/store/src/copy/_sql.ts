import type { CopyProgress, TableProgress } from "./endpoint";
import type { CopyValue } from "./rows";

/** An identifier quoted for both SQLite and PostgreSQL. */
export function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The resume record from its rows: one per table, and one `source:<label>` row. */
export function progressFrom(
  rows: { table_name: string; last_key: string | null; rows: number | string }[],
): CopyProgress {
  let source = "";
  const tables = new Map<string, TableProgress>();
  for (const row of rows) {
    if (row.table_name.startsWith("source:")) {
      source = row.table_name.slice("source:".length);
      continue;
    }
    tables.set(row.table_name, {
      table: row.table_name,
      lastKey: row.last_key === null ? null : (JSON.parse(row.last_key) as CopyValue[]),
      rows: Number(row.rows),
    });
  }
  return { source, tables };
}
