import type { StoreGenerations } from "../contract";
import type { Db } from "./_db";
import { named } from "./_statements";

const READ = named("SELECT name, sum(value)::bigint AS value FROM generations GROUP BY name");

/**
 * A CTE that bumps a generation, only when `when` (a CTE name) returned a row, so a change
 * and its bump commit in one statement. Timer generations go to the shard of the account.
 */
export function bumpCte(name: keyof StoreGenerations, when: string, accountParam?: string): string {
  const shard = name === "timers" && accountParam ? `abs(hashtext(${accountParam})) % 16` : "0";
  return `UPDATE generations SET value = value + 1
    WHERE name = '${name}' AND shard = ${shard} AND EXISTS (SELECT 1 FROM ${when})`;
}

/** Reads the generations: one small aggregate. */
export async function readGenerations(db: Db): Promise<StoreGenerations> {
  const { rows } = await db.query<{ name: keyof StoreGenerations; value: string }>(READ);
  const out: StoreGenerations = { auth: 0, timers: 0, assets: 0 };
  for (const row of rows) out[row.name] = Number(row.value);
  return out;
}
