/**
 * One schema change: applied once, in order, inside its own transaction. Each adapter keeps its
 * own list (its own numbering and SQL); a database records the versions it applied, so a
 * released migration is never renumbered or edited.
 */
export interface Migration {
  /** Strictly increasing from 1; never renumber a released migration. */
  version: number;
  name: string;
  sql: string;
}

/** The version a list of migrations brings a database to (0 for none). */
export function latestVersion(migrations: readonly Migration[]): number {
  return migrations.at(-1)?.version ?? 0;
}
