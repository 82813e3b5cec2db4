import type { RequestLogQueries } from "../../shared/queries";
import type { Db } from "../_db";
import { fromRow, REQUEST_LOG_COLUMNS, type RequestLogRow } from "../_rows";
import { Params } from "../_sql";
import { named } from "../_statements";

/** A batch of log rows in one statement: the columns travel as arrays, unnested server-side. */
const LOG_REQUESTS = named(`
INSERT INTO request_log (${REQUEST_LOG_COLUMNS})
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
  $6::text[], $7::text[], $8::text[], $9::integer[], $10::text[],
  $11::double precision[], $12::bigint[])`);

/** The request-log methods: a batch is one INSERT (one transaction), a page one SELECT. */
export function createRequestLogQueries(db: Db): RequestLogQueries {
  return {
    async countRequestsByDay({ account_id, environment, since, until }) {
      const { rows } = await db.query<{ day: string; count: string }>(
        `SELECT (created_at / 86400000) * 86400000 AS day, count(*) AS count FROM request_log
         WHERE account_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4
         GROUP BY 1 ORDER BY 1`,
        [account_id, environment, since, until],
      );
      return rows.map((r) => ({ day: Number(r.day), count: Number(r.count) }));
    },
    async logRequests(entries) {
      if (entries.length === 0) return;
      const column = <K extends keyof (typeof entries)[number]>(k: K) => entries.map((e) => e[k]);
      await db.query(LOG_REQUESTS, [
        column("id"),
        column("account_id"),
        column("environment"),
        column("key_id"),
        column("key_prefix"),
        column("request_id"),
        column("method"),
        column("route"),
        column("status"),
        column("error_code"),
        column("duration_ms"),
        column("created_at"),
      ]);
    },
    async listRequestLog(query) {
      if (!(query.limit > 0)) return [];
      const p = new Params();
      const filters: string[] = [];
      const filter = (column: string, value: string | undefined) => {
        if (value !== undefined) filters.push(`AND ${column} = ${p.text(value)}`);
      };
      const where = `account_id = ${p.text(query.account_id)} AND environment = ${p.text(query.environment)}`;
      filter("request_id", query.request_id);
      filter("route", query.route);
      filter("key_id", query.key_id);
      filter("key_prefix", query.key_prefix);
      if (query.status !== undefined) filters.push(`AND status = ${p.int(query.status)}`);
      if (query.created_at !== undefined) {
        filters.push(`AND created_at = ${p.big(query.created_at)}`);
      }
      // Newest first, strictly before `after`, along request_log_page.
      const after = query.after
        ? `AND (created_at, id) < (${p.big(query.after.value)}, ${p.text(query.after.id)})`
        : "";
      const { rows } = await db.query<RequestLogRow>(
        `SELECT ${REQUEST_LOG_COLUMNS} FROM request_log WHERE ${where} ${filters.join(" ")} ${after}
         ORDER BY created_at DESC, id DESC LIMIT ${p.int(query.limit)}`,
        p.values,
      );
      return rows.map(fromRow.requestLogEntry);
    },
  };
}
