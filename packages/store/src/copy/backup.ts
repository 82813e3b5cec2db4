import { existsSync, renameSync, rmSync } from "node:fs";
import { openDatabase, type SqliteDatabase } from "../sqlite/database";

/** The part of better-sqlite3's handle a backup uses beyond the store's own interface. */
interface BackupHandle extends SqliteDatabase {
  backup(to: string, options: { progress: () => number }): Promise<{ totalPages: number }>;
}

/** What `backupSqlite` wrote. */
export interface SqliteBackupResult {
  path: string;
  pages: number;
}

/**
 * A consistent copy of a live SQLite database through SQLite's online backup API, safe while
 * `tminus serve` writes to it. All pages go in one backup step: the step reads one snapshot
 * (WAL readers never block the writer), whereas copying a few pages per step would restart
 * from scratch at every write of another process, and never end on a busy server. Written to
 * `<out>.partial` and renamed, so a backup cut short never looks finished.
 *
 * @example
 * await backupSqlite(".tminus/tminus.db", "backups/tminus-2026-11-27.db");
 */
export async function backupSqlite(source: string, out: string): Promise<SqliteBackupResult> {
  // openDatabase would create a missing file; a backup of nothing is a mistake to report.
  if (!existsSync(source)) throw new Error(`no SQLite database at ${source}`);
  // Through the store's loader: better-sqlite3 is an optional peer, loaded only when used.
  const db = openDatabase(source) as BackupHandle;
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const { totalPages } = await db.backup(partial, { progress: () => 0x7fffffff });
    renameSync(partial, out);
    return { path: out, pages: totalPages };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}
