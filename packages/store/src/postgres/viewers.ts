import type { ViewerQueries } from "../shared/queries";
import type { Db } from "./_db";
import { fromRow, TIMER_COLUMNS, type TimerRow } from "./_rows";
import { ms } from "./_sql";
import { named } from "./_statements";

/**
 * Insert-or-get in one statement: the first writer wins. A repeat view finds the row in the
 * statement's snapshot and writes nothing.
 */
const FIRST_VIEW = named(`
WITH inserted AS (
  INSERT INTO timer_viewers (timer_id, viewer, first_seen_at) VALUES ($1, $2, $3)
  ON CONFLICT (timer_id, viewer) DO NOTHING
  RETURNING first_seen_at
)
SELECT first_seen_at FROM inserted
UNION ALL
SELECT first_seen_at FROM timer_viewers WHERE timer_id = $1 AND viewer = $2`);

/** The public routes' timer lookup (any account). */
const BY_ID = named(`SELECT ${TIMER_COLUMNS} FROM timers WHERE id = $1 AND deleted_at IS NULL`);

/** The public lookups and the first-view record. */
export function createViewerQueries(db: Db): ViewerQueries {
  // Views of one (timer, viewer) already on their way to the database: a burst of requests
  // from one recipient shares the first one's answer (the stored instant is the answer for
  // all of them), so within a process the first call wins, as with one writer. Across
  // processes the first to commit wins.
  const inflight = new Map<string, Promise<number>>();
  const record = async (timer_id: string, viewer: string, now: number) => {
    for (;;) {
      const { rows } = await db.query<{ first_seen_at: string }>(FIRST_VIEW, [
        timer_id,
        viewer,
        now,
      ]);
      // Empty only when a concurrent first view committed after this statement's snapshot
      // was taken (the insert waited for it, then skipped): the next statement sees it.
      if (rows[0]) return ms(rows[0].first_seen_at);
    }
  };
  return {
    async findTimerById(id) {
      const { rows } = await db.query<TimerRow>(BY_ID, [id]);
      return rows[0] ? fromRow.timer(rows[0]) : null;
    },
    recordFirstView({ timer_id, viewer, now }) {
      const key = JSON.stringify([timer_id, viewer]);
      const pending = inflight.get(key);
      if (pending) return pending;
      const answer = record(timer_id, viewer, now).finally(() => inflight.delete(key));
      inflight.set(key, answer);
      return answer;
    },
  };
}
