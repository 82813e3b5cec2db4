import type { Query } from "./_db";

/** What to insert while fewer than a limit of live rows exist. */
export interface InsertUnderLimit {
  table: string;
  /** The columns inserted and returned. */
  columns: string;
  /** Which rows of `table` count towards the limit. */
  live: string;
  /** The `SELECT <values>` of the new row (it reads from the count, so no `FROM`). */
  values: string;
  /** The placeholder of the limit, e.g. `$8`. */
  limit: string;
}

/**
 * Counts the live rows and inserts the new one only while the count is under the limit, in one
 * statement (callers hold a lock so the count is current). Returns the count and the inserted
 * row, or null for the row when the limit was reached.
 */
export async function insertUnderLimit<Row>(
  query: Query,
  target: InsertUnderLimit,
  params: unknown[],
): Promise<{ live: number; row: Row | null }> {
  const { rows } = await query<Row & { live: number; id: string | null }>(
    `WITH live AS (
       SELECT count(*)::int AS live FROM ${target.table} WHERE ${target.live}
     ), inserted AS (
       INSERT INTO ${target.table} (${target.columns})
       ${target.values}
       FROM live WHERE live < ${target.limit}::int
       RETURNING ${target.columns}
     )
     SELECT live.live, inserted.* FROM live LEFT JOIN inserted ON true`,
    params,
  );
  const { live, ...row } = rows[0]!;
  return { live, row: row.id === null ? null : (row as unknown as Row) };
}
