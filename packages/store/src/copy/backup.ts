import { renameSync, rmSync } from "node:fs";
import Database from "better-sqlite3";

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
  const db = new Database(source, { fileMustExist: true });
  const partial = `${out}.partial`;
  rmSync(partial, { force: true });
  try {
    db.pragma("busy_timeout = 5000");
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
