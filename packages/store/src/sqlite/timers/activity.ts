import type { ActivityEntry, ListActivityQuery } from "../../contract";
import type { ActivityQueries } from "../../shared/queries";
import type { SqliteDatabase, SqliteStatement } from "../database";

const COLUMNS =
  "id, timer_id, account_id, environment, action, revision, key_id, key_prefix, request_id, changes, created_at";

/** Prepares the activity insert; used inside the create and change transactions. */
export function activityInsert(db: SqliteDatabase): (entry: ActivityEntry) => void {
  const insert: SqliteStatement = db.prepare(
    `INSERT INTO timer_activity (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return (e) => {
    insert.run(
      e.id,
      e.timer_id,
      e.account_id,
      e.environment,
      e.action,
      e.revision,
      e.key_id,
      e.key_prefix,
      e.request_id,
      JSON.stringify(e.changes),
      e.created_at,
    );
  };
}

/** Prepares the activity page statements and returns `listActivity`. */
export function createActivityQueries(db: SqliteDatabase): ActivityQueries {
  const where = "account_id = ? AND environment = ? AND timer_id = ?";
  const first = db.prepare(
    `SELECT ${COLUMNS} FROM timer_activity WHERE ${where}
     ORDER BY revision DESC LIMIT ?`,
  );
  const next = db.prepare(
    `SELECT ${COLUMNS} FROM timer_activity WHERE ${where} AND revision < ?
     ORDER BY revision DESC LIMIT ?`,
  );
  return {
    async listActivity(query: ListActivityQuery) {
      if (!(query.limit > 0)) return [];
      const scope = [query.account_id, query.environment, query.timer_id];
      const rows = (
        query.before_revision !== undefined
          ? next.all(...scope, query.before_revision, query.limit)
          : first.all(...scope, query.limit)
      ) as (Omit<ActivityEntry, "changes"> & { changes: string })[];
      return rows.map((r) => ({ ...r, changes: JSON.parse(r.changes) }));
    },
  };
}
