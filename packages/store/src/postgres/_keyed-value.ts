import type { Db } from "./_db";

/** A table that holds one value per primary key (`secrets`, `analytics_salts`). */
export interface KeyedValueTable {
  table: string;
  key: string;
  value: string;
}

/**
 * The value stored under `key`, made by `create` when there is none yet. The primary key
 * decides between processes that ask together: the first insert wins and everyone reads the
 * winner's value.
 */
export async function getOrCreateValue(
  db: Db,
  target: KeyedValueTable,
  key: string | number,
  create: () => string,
): Promise<string> {
  const read = async () => {
    const { rows } = await db.query<{ value: string }>(
      `SELECT ${target.value} AS value FROM ${target.table} WHERE ${target.key} = $1`,
      [key],
    );
    return rows[0]?.value;
  };
  const known = await read();
  if (known !== undefined) return known;
  await db.query(
    `INSERT INTO ${target.table} (${target.key}, ${target.value}) VALUES ($1, $2)
     ON CONFLICT DO NOTHING`,
    [key, create()],
  );
  return (await read())!;
}
