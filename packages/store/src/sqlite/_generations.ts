import type { StoreGenerations } from "../contract";
import type { SqliteDatabase } from "./database";

/** Bumps and reads the cache generations of one store instance. */
export interface Generations {
  /** Increments a generation; call inside the transaction of the change it stands for. */
  bump(name: keyof StoreGenerations): void;
  read(): StoreGenerations;
}

/**
 * The generations table, read only when it can have changed. `PRAGMA data_version` moves
 * when another connection (another process) commits, and costs no disk read; this
 * instance's own bumps mark the cached values stale. A single process on one file so reads
 * the table only after its own changes.
 */
export function createGenerations(db: SqliteDatabase): Generations {
  const bumpOne = db.prepare("UPDATE generations SET value = value + 1 WHERE name = ?");
  const readAll = db.prepare("SELECT name, value FROM generations");
  const dataVersion = db.prepare("PRAGMA data_version");
  let cached: StoreGenerations | null = null;
  let seenVersion = -1;

  return {
    bump(name) {
      bumpOne.run(name);
      cached = null;
    },
    read() {
      const version = (dataVersion.get() as { data_version: number }).data_version;
      if (cached && version === seenVersion) return cached;
      const next: StoreGenerations = { auth: 0, timers: 0, assets: 0 };
      for (const row of readAll.all() as { name: keyof StoreGenerations; value: number }[]) {
        next[row.name] = row.value;
      }
      cached = next;
      seenVersion = version;
      return next;
    },
  };
}
