import type { ActivityEntry } from "../../contract";
import type { ActivityQueries } from "../../shared/queries";
import type { Db } from "../_db";
import { ms, type Params } from "../_sql";

const COLUMNS =
  "id, timer_id, account_id, environment, action, revision, key_id, key_prefix, request_id, changes, created_at";

/**
 * The CTE that writes an activity entry as part of the caller's statement, only when `source`
 * (a CTE name: the timer insert or update) returned a row.
 */
export function activityCte(p: Params, e: ActivityEntry, source: string): string {
  return `act AS (
    INSERT INTO timer_activity (${COLUMNS})
    SELECT ${p.text(e.id)}, ${p.text(e.timer_id)}, ${p.text(e.account_id)}, ${p.text(e.environment)},
      ${p.text(e.action)}, ${p.int(e.revision)}, ${p.text(e.key_id)}, ${p.text(e.key_prefix)},
      ${p.text(e.request_id)}, ${p.json(JSON.stringify(e.changes))}, ${p.big(e.created_at)}
    FROM ${source}
  )`;
}

/** `listActivity`: one index range of `timer_activity_page`, newest revision first. */
export function createActivityQueries(db: Db): ActivityQueries {
  return {
    async listActivity(query) {
      if (!(query.limit > 0)) return [];
      const paged = query.before_revision !== undefined;
      const { rows } = await db.query<Omit<ActivityEntry, "created_at"> & { created_at: string }>(
        `SELECT ${COLUMNS} FROM timer_activity
         WHERE account_id = $1 AND environment = $2 AND timer_id = $3
           ${paged ? "AND revision < $5" : ""}
         ORDER BY revision DESC LIMIT $4`,
        [
          query.account_id,
          query.environment,
          query.timer_id,
          query.limit,
          ...(paged ? [query.before_revision] : []),
        ],
      );
      return rows.map((r) => ({ ...r, created_at: ms(r.created_at) }));
    },
  };
}
