import type { ViewerQueries } from "../shared/queries";
import type { GroupWrite } from "./_group-commit";
import { fromRow, TIMER_COLUMNS, type TimerRow } from "./_rows";
import type { SqliteDatabase } from "./database";

/** Prepares the public lookups and the first-view record. */
export function createViewerQueries(db: SqliteDatabase, write: GroupWrite): ViewerQueries {
  const byId = db.prepare(
    `SELECT ${TIMER_COLUMNS} FROM timers WHERE id = ? AND deleted_at IS NULL`,
  );
  const seen = db.prepare(
    "SELECT first_seen_at FROM timer_viewers WHERE timer_id = ? AND viewer = ?",
  );
  // INSERT OR IGNORE then read: the first writer wins, every later view reads its instant.
  const insert = db.prepare(
    "INSERT OR IGNORE INTO timer_viewers (timer_id, viewer, first_seen_at) VALUES (?, ?, ?)",
  );
  return {
    async findTimerById(id) {
      const row = byId.get(id) as TimerRow | undefined;
      return row ? fromRow.timer(row) : null;
    },
    async recordFirstView({ timer_id, viewer, now }) {
      // Most views are repeat views: answer those from a read, without a write.
      const known = seen.get(timer_id, viewer) as { first_seen_at: number } | undefined;
      if (known) return known.first_seen_at;
      return write(() => {
        insert.run(timer_id, viewer, now);
        return (seen.get(timer_id, viewer) as { first_seen_at: number }).first_seen_at;
      });
    },
  };
}
