import type { ListRequestLogQuery, RequestLogEntry } from "../../contract";
import type { RequestLogQueries } from "../../shared/queries";
import type { GroupWrite } from "../_group-commit";
import { REQUEST_LOG_COLUMNS } from "../_rows";
import { statementCache } from "../_statement-cache";
import type { SqliteDatabase, SqliteStatement } from "../database";

/** Prepares the request-log statements and returns its methods. */
export function createRequestLogQueries(db: SqliteDatabase, write: GroupWrite): RequestLogQueries {
  // A statement of 1, 2, 4, ... ROWS_PER_INSERT rows each, and its own array of values (reused
  // for every run: better-sqlite3 binds an array's items in order).
  const inserts: { rows: number; statement: SqliteStatement; values: unknown[] }[] = [];
  for (let rows = ROWS_PER_INSERT; rows >= 1; rows /= 2) {
    inserts.push({
      rows,
      statement: db.prepare(
        `INSERT INTO request_log (${REQUEST_LOG_COLUMNS}) VALUES ${Array(rows).fill(ROW).join(", ")}`,
      ),
      values: new Array(rows * COLUMN_COUNT),
    });
  }
  const page = statementCache(db);
  const byDay = db.prepare(
    `SELECT (created_at / 86400000) * 86400000 AS day, count(*) AS count FROM request_log
     WHERE account_id = ? AND environment = ? AND created_at >= ? AND created_at < ?
     GROUP BY day ORDER BY day`,
  );
  // Hot path: the http layer batches every request finished in one turn into one commit.
  // Runs inside a group-commit transaction (see _group-commit.ts). A statement run costs
  // about as much as a row, so rows go in statements of ROWS_PER_INSERT and the rest in the
  // binary decomposition of what is left (13 rows: 8 + 4 + 1): at most 6 runs for the rest
  // of a batch, where one by one took up to 31.
  const insertBatch = (entries: RequestLogEntry[]) => {
    let i = 0;
    for (const { rows, statement, values } of inserts) {
      for (; i + rows <= entries.length; i += rows) {
        for (let j = 0; j < rows; j++) putRow(values, j * COLUMN_COUNT, entries[i + j]!);
        statement.run(values);
      }
    }
  };

  return {
    async countRequestsByDay({ account_id, environment, since, until }) {
      return byDay.all(account_id, environment, since, until) as { day: number; count: number }[];
    },
    async logRequests(entries) {
      if (entries.length > 0) await write(() => insertBatch(entries));
    },
    async listRequestLog(query: ListRequestLogQuery) {
      if (!(query.limit > 0)) return [];
      const params = {
        account_id: query.account_id,
        environment: query.environment,
        status: query.status ?? null,
        route: query.route ?? null,
        key_id: query.key_id ?? null,
        key_prefix: query.key_prefix ?? null,
        request_id: query.request_id ?? null,
        limit: query.limit,
      };
      const atInstant = query.created_at !== undefined;
      const paged = query.after !== undefined;
      const statement = page(`${atInstant}:${paged}`, () => pageSql(atInstant, paged));
      const bound = atInstant ? { ...params, created_at: query.created_at } : params;
      const rows = query.after
        ? statement.all({ ...bound, after_value: query.after.value, after_id: query.after.id })
        : statement.all(bound);
      return rows as RequestLogEntry[];
    },
  };
}

/**
 * One page, newest first, strictly before `after`. An exact instant gets its own statement:
 * behind an `(@x IS NULL OR ...)` guard the planner could not use it to seek in
 * `request_log_page`.
 */
function pageSql(atInstant: boolean, paged: boolean): string {
  return `SELECT ${REQUEST_LOG_COLUMNS} FROM request_log
    WHERE account_id = @account_id AND environment = @environment
      ${atInstant ? "AND created_at = @created_at" : ""}
      AND (@request_id IS NULL OR request_id = @request_id)
      AND (@status IS NULL OR status = @status)
      AND (@route IS NULL OR route = @route)
      AND (@key_id IS NULL OR key_id = @key_id)
      AND (@key_prefix IS NULL OR key_prefix = @key_prefix)
      ${paged ? "AND (created_at, id) < (@after_value, @after_id)" : ""}
    ORDER BY created_at DESC, id DESC
    LIMIT @limit`;
}

const COLUMN_COUNT = 12;
const ROW = `(${Array(COLUMN_COUNT).fill("?").join(", ")})`;
/** Rows per multi-row INSERT (384 values, far below SQLite's limit of 32,766). */
const ROWS_PER_INSERT = 32;

/** Writes an entry's values at `at` in `REQUEST_LOG_COLUMNS` order. */
function putRow(values: unknown[], at: number, e: RequestLogEntry): void {
  values[at] = e.id;
  values[at + 1] = e.account_id;
  values[at + 2] = e.environment;
  values[at + 3] = e.key_id;
  values[at + 4] = e.key_prefix;
  values[at + 5] = e.request_id;
  values[at + 6] = e.method;
  values[at + 7] = e.route;
  values[at + 8] = e.status;
  values[at + 9] = e.error_code;
  values[at + 10] = e.duration_ms;
  values[at + 11] = e.created_at;
}
