/** Rows as aligned text columns, two spaces apart, one line each (for `keys list` and friends). */
export function columns(rows: string[][]): string {
  if (rows.length === 0) return "";
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join("  ")
      .trimEnd(),
  );
  return `${lines.join("\n")}\n`;
}
