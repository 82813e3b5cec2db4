import { sourceViews, sumBuckets } from "../_analytics-buckets";
import type {
  AnalyticsStore,
  ClientFamily,
  RenderAnalyticsQuery,
  RenderKind,
  RenderViewCount,
  RenderViewerMark,
} from "../contract";
import type { Db } from "./_db";
import { getOrCreateValue } from "./_keyed-value";
import { ms, Params } from "./_sql";
import { named } from "./_statements";

/** A count with its source's views in the columns they are stored in. */
type SourcedCount = RenderViewCount & { proxy_views: number; prefetch_views: number };

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * One row per key, in key order: ON CONFLICT may touch a row once per statement, and batches
 * of two processes that lock rows in one order cannot deadlock each other.
 */
function merged<T>(rows: readonly T[], key: (r: T) => string, add: (into: T, r: T) => void): T[] {
  const byKey = new Map<string, T>();
  for (const r of rows) {
    const k = key(r);
    const seen = byKey.get(k);
    if (seen) add(seen, r);
    else byKey.set(k, { ...r });
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

/**
 * One timer, or the account's live timers (a deleted timer leaves the totals). render_viewers
 * is keyed by timer only: an account's rows are reached through its timers' ids.
 */
function scopeSql(p: Params, q: RenderAnalyticsQuery): string {
  const account = p.text(q.account_id);
  const environment = p.text(q.environment);
  return `account_id = ${account} AND environment = ${environment} AND ${
    q.timer_id === undefined
      ? `timer_id IN (SELECT id FROM timers
           WHERE account_id = ${account} AND environment = ${environment} AND deleted_at IS NULL)`
      : `timer_id = ${p.text(q.timer_id)}`
  }`;
}

/** Render counts, viewer sets and daily salts. */
export function createPostgresAnalyticsStore(db: Db): AnalyticsStore {
  return {
    async recordRenderViews(input) {
      const counts = merged<SourcedCount>(
        input.counts.map((c) => {
          const { proxy, prefetch } = sourceViews(c);
          return { ...c, proxy_views: proxy, prefetch_views: prefetch };
        }),
        (c) => `${c.timer_id}|${c.hour}|${c.kind}|${c.client}`,
        (into, c) => {
          into.views += c.views;
          into.proxy_views += c.proxy_views;
          into.prefetch_views += c.prefetch_views;
        },
      );
      const viewers = merged<Required<RenderViewerMark>>(
        input.viewers.map((v) => ({ ...v, human_hours: v.human_hours ?? v.hours })),
        (v) => `${v.timer_id}|${v.day}|${v.viewer}`,
        (into, v) => {
          into.hours |= v.hours;
          into.human_hours |= v.human_hours;
        },
      );
      if (counts.length === 0 && viewers.length === 0) return;
      const p = new Params();
      const sql = `WITH counted AS (
          INSERT INTO render_views
            (timer_id, hour, kind, client, account_id, environment, views, proxy_views, prefetch_views)
          SELECT * FROM unnest(${p.texts(counts.map((c) => c.timer_id))}, ${p.bigs(counts.map((c) => c.hour))},
            ${p.texts(counts.map((c) => c.kind))}, ${p.texts(counts.map((c) => c.client))},
            ${p.texts(counts.map((c) => c.account_id))}, ${p.texts(counts.map((c) => c.environment))},
            ${p.bigs(counts.map((c) => c.views))}, ${p.bigs(counts.map((c) => c.proxy_views))},
            ${p.bigs(counts.map((c) => c.prefetch_views))})
          ON CONFLICT (timer_id, hour, kind, client)
            DO UPDATE SET views = render_views.views + excluded.views,
              proxy_views = render_views.proxy_views + excluded.proxy_views,
              prefetch_views = render_views.prefetch_views + excluded.prefetch_views
        )
        INSERT INTO render_viewers (timer_id, day, viewer, account_id, environment, hours, human_hours)
        SELECT t, d, v, a, e, h::integer, u::integer FROM unnest(${p.texts(viewers.map((v) => v.timer_id))},
          ${p.bigs(viewers.map((v) => v.day))}, ${p.texts(viewers.map((v) => v.viewer))},
          ${p.texts(viewers.map((v) => v.account_id))}, ${p.texts(viewers.map((v) => v.environment))},
          ${p.bigs(viewers.map((v) => v.hours))}, ${p.bigs(viewers.map((v) => v.human_hours))})
          AS x (t, d, v, a, e, h, u)
        ON CONFLICT (timer_id, day, viewer) DO UPDATE SET hours = render_viewers.hours | excluded.hours,
          human_hours = render_viewers.human_hours | excluded.human_hours
        WHERE (render_viewers.hours | excluded.hours) <> render_viewers.hours
          OR (render_viewers.human_hours | excluded.human_hours) <> render_viewers.human_hours`;
      // A transaction of one statement: a deadlock with another writer is retried by `Db`.
      // Named: every value travels in an array, so the text is always the same.
      await db.transaction(async (query) => {
        await query(named(sql), p.values);
      });
    },
    async listRenderAnalytics(q) {
      if (!(q.limit > 0)) return [];
      const size = q.granularity === "hour" ? HOUR_MS : DAY_MS;
      const p = new Params();
      const scope = scopeSql(p, q);
      const s = p.big(size);
      const range = `hour >= ${p.big(q.from)} AND hour < ${p.big(q.to)} AND hour >= ${p.big(
        q.after === undefined ? q.from : q.after + size,
      )}`;
      const { rows } = await db.query<{
        bucket: string;
        kind: RenderKind;
        client: ClientFamily;
        views: string;
        proxy_views: string;
        prefetch_views: string;
      }>(
        `WITH page AS (
           SELECT DISTINCT (hour / ${s}) * ${s} AS bucket FROM render_views
           WHERE ${scope} AND ${range} ORDER BY bucket LIMIT ${p.int(q.limit)}
         )
         SELECT (hour / ${s}) * ${s} AS bucket, kind, client, sum(views)::bigint AS views,
           sum(proxy_views)::bigint AS proxy_views, sum(prefetch_views)::bigint AS prefetch_views
         FROM render_views
         WHERE ${scope} AND ${range} AND (hour / ${s}) * ${s} IN (SELECT bucket FROM page)
         GROUP BY 1, kind, client`,
        p.values,
      );
      const buckets = sumBuckets(
        rows.map((r) => ({
          start: ms(r.bucket),
          kind: r.kind,
          client: r.client,
          views: ms(r.views),
          proxy_views: ms(r.proxy_views),
          prefetch_views: ms(r.prefetch_views),
        })),
      );
      const starts = [...buckets.keys()].sort((a, b) => a - b);
      if (starts.length === 0) return [];
      const u = new Params();
      const uScope = scopeSql(u, q);
      const list = u.bigs(starts);
      const uniques =
        q.granularity === "hour"
          ? // Hour n of a day row counts when bit n is set.
            `SELECT day + n * ${HOUR_MS} AS bucket, count(DISTINCT viewer)::bigint AS viewers,
               count(DISTINCT viewer) FILTER (WHERE (human_hours >> n) & 1 = 1)::bigint AS humans
             FROM render_viewers, generate_series(0, 23) AS n
             WHERE ${uScope} AND day >= ${u.big(starts[0]! - (starts[0]! % DAY_MS))}
               AND day <= ${u.big(starts.at(-1)! - (starts.at(-1)! % DAY_MS))}
               AND (hours >> n) & 1 = 1 AND day + n * ${HOUR_MS} = ANY (${list})
             GROUP BY 1`
          : `SELECT day AS bucket, count(DISTINCT viewer)::bigint AS viewers,
               count(DISTINCT viewer) FILTER (WHERE human_hours <> 0)::bigint AS humans FROM render_viewers
             WHERE ${uScope} AND day = ANY (${list}) GROUP BY day`;
      const counted = await db.query<{ bucket: string; viewers: string; humans: string }>(
        uniques,
        u.values,
      );
      for (const row of counted.rows) {
        const b = buckets.get(ms(row.bucket));
        if (b) {
          b.unique_viewers = ms(row.viewers);
          b.human_unique_viewers = ms(row.humans);
        }
      }
      return starts.map((start) => buckets.get(start)!);
    },
    async analyticsSalt(day, create) {
      return getOrCreateValue(
        db,
        { table: "analytics_salts", key: "day", value: "salt" },
        day,
        create,
      );
    },
  };
}
