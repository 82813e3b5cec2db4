import type { TableComparison, TableSummary } from "@tminus/store/copy";

/**
 * The verification table `copy` and `restore` print: each table's rows on both sides and its
 * checksum (both when they differ), then one verdict line.
 */
export function formatVerification(
  tables: readonly TableComparison[],
  sides: [string, string] = ["source", "target"],
): string {
  const width = Math.max(...tables.map((t) => t.table.length));
  const lines = tables.map((t) => {
    const rows = (side: TableComparison["source"]) => String(side?.rows ?? "-").padStart(9);
    const sums =
      t.source?.checksum === t.target?.checksum
        ? (t.source?.checksum ?? "-")
        : `${t.source?.checksum ?? "-"} != ${t.target?.checksum ?? "-"}`;
    return `  ${t.table.padEnd(width)} ${rows(t.source)} ${rows(t.target)}  ${sums}  ${t.ok ? "ok" : "DIFFERENT"}`;
  });
  const header = `  ${"table".padEnd(width)} ${sides[0].padStart(9)} ${sides[1].padStart(9)}  checksum`;
  const bad = tables.filter((t) => !t.ok).length;
  const verdict =
    bad === 0
      ? `verified: ${tables.length} tables, equal counts and checksums`
      : `NOT verified: ${bad} of ${tables.length} tables differ`;
  return `${[header, ...lines, verdict].join("\n")}\n`;
}

/** The table `backup` prints: each table's rows and checksum, as saved in its manifest. */
export function formatSummaries(tables: readonly TableSummary[]): string {
  const width = Math.max(...tables.map((t) => t.table.length));
  const lines = tables.map(
    (t) => `  ${t.table.padEnd(width)} ${String(t.rows).padStart(9)}  ${t.checksum}`,
  );
  return `${[`  ${"table".padEnd(width)} ${"rows".padStart(9)}  checksum`, ...lines].join("\n")}\n`;
}
