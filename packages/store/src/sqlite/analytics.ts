import {
  boundCampaigns,
  type ClickRow,
  campaignRows,
  sourceViews,
  sumBuckets,
  type TotalRow,
  totalOf,
} from "../_analytics-buckets";
import {
  type AnalyticsStore,
  type ClickState,
  type ClientFamily,
  OTHER_CAMPAIGN,
  type RenderKind,
} from "../contract";
import type { GroupWrite } from "./_group-commit";
import type { SqliteDatabase } from "./database";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Render counts, viewer sets and daily salts, over statements prepared once. */
export function createSqliteAnalyticsStore(db: SqliteDatabase, write: GroupWrite): AnalyticsStore {
  const addCount = db.prepare(
    `INSERT INTO render_views
       (timer_id, hour, kind, client, account_id, environment, views, proxy_views, prefetch_views)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (timer_id, hour, kind, client) DO UPDATE SET views = views + excluded.views,
       proxy_views = proxy_views + excluded.proxy_views,
       prefetch_views = prefetch_views + excluded.prefetch_views`,
  );
  // A repeat viewer in an hour already marked writes nothing (the WHERE skips the update).
  const markViewer = db.prepare(
    `INSERT INTO render_viewers (timer_id, day, viewer, account_id, environment, hours, human_hours)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (timer_id, day, viewer) DO UPDATE
       SET hours = hours | excluded.hours, human_hours = human_hours | excluded.human_hours
     WHERE (hours | excluded.hours) <> hours OR (human_hours | excluded.human_hours) <> human_hours`,
  );
  const addClicks = db.prepare(
    `INSERT INTO render_clicks
       (timer_id, hour, state, account_id, environment, clicks, proxy_clicks, prefetch_clicks)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (timer_id, hour, state) DO UPDATE SET clicks = clicks + excluded.clicks,
       proxy_clicks = proxy_clicks + excluded.proxy_clicks,
       prefetch_clicks = prefetch_clicks + excluded.prefetch_clicks`,
  );
  const labelsOf = db.prepare(
    "SELECT campaign FROM campaign_counts WHERE timer_id = ? AND day = ? AND campaign <> ?",
  );
  const addCampaign = db.prepare(
    `INSERT INTO campaign_counts (timer_id, day, campaign, account_id, environment, views,
       proxy_views, prefetch_views, clicks, proxy_clicks, prefetch_clicks)
     VALUES (@timer_id, @day, @campaign, @account_id, @environment, @views, @proxy_views,
       @prefetch_views, @clicks, @proxy_clicks, @prefetch_clicks)
     ON CONFLICT (timer_id, day, campaign) DO UPDATE SET views = views + excluded.views,
       proxy_views = proxy_views + excluded.proxy_views,
       prefetch_views = prefetch_views + excluded.prefetch_views,
       clicks = clicks + excluded.clicks, proxy_clicks = proxy_clicks + excluded.proxy_clicks,
       prefetch_clicks = prefetch_clicks + excluded.prefetch_clicks`,
  );
  const readSalt = db.prepare("SELECT salt FROM analytics_salts WHERE day = ?");
  const insertSalt = db.prepare("INSERT OR IGNORE INTO analytics_salts (day, salt) VALUES (?, ?)");

  // One timer, or the account's live timers (a deleted timer leaves the totals). render_viewers
  // is keyed by timer only: an account's rows are reached through its timers' ids.
  const scope = (timer: boolean) =>
    `account_id = @account_id AND environment = @environment AND ${
      timer
        ? "timer_id = @timer_id"
        : `timer_id IN (SELECT id FROM timers
             WHERE account_id = @account_id AND environment = @environment AND deleted_at IS NULL)`
    }`;
  const range = "hour >= @from AND hour < @to AND hour >= @after_end";
  // The page's buckets first (keyset over the bucket start): those with views or clicks. `%`
  // works on integers whatever type the driver binds @size with; `/` would not floor a REAL.
  const pageSql = (timer: boolean) =>
    `SELECT bucket FROM (
       SELECT (hour - hour % @size) AS bucket FROM render_views WHERE ${scope(timer)} AND ${range}
       UNION
       SELECT (hour - hour % @size) AS bucket FROM render_clicks WHERE ${scope(timer)} AND ${range}
     ) ORDER BY bucket LIMIT @limit`;
  const inPage = "(hour - hour % @size) IN (SELECT value FROM json_each(@buckets))";
  const bucketsSql = (timer: boolean) =>
    `SELECT (hour - hour % @size) AS bucket, kind, client, sum(views) AS views,
       sum(proxy_views) AS proxy_views, sum(prefetch_views) AS prefetch_views
     FROM render_views WHERE ${scope(timer)} AND ${range} AND ${inPage}
     GROUP BY bucket, kind, client`;
  const clicksSql = (timer: boolean) =>
    `SELECT (hour - hour % @size) AS bucket, state, sum(clicks) AS clicks,
       sum(proxy_clicks) AS proxy_clicks, sum(prefetch_clicks) AS prefetch_clicks
     FROM render_clicks WHERE ${scope(timer)} AND ${range} AND ${inPage}
     GROUP BY bucket, state`;
  const sums = `sum(views) AS views, sum(proxy_views) AS proxy_views,
       sum(prefetch_views) AS prefetch_views, sum(clicks) AS clicks,
       sum(proxy_clicks) AS proxy_clicks, sum(prefetch_clicks) AS prefetch_clicks`;
  const order = "ORDER BY views DESC, clicks DESC, key LIMIT @limit";
  const byTimerSql = (timer: boolean) =>
    `SELECT key, ${sums} FROM (
       SELECT timer_id AS key, views, proxy_views, prefetch_views, 0 AS clicks,
         0 AS proxy_clicks, 0 AS prefetch_clicks
       FROM render_views WHERE ${scope(timer)} AND hour >= @from AND hour < @to
       UNION ALL
       SELECT timer_id, 0, 0, 0, clicks, proxy_clicks, prefetch_clicks
       FROM render_clicks WHERE ${scope(timer)} AND hour >= @from AND hour < @to
     ) GROUP BY key ${order}`;
  const byCampaignSql = (timer: boolean) =>
    `SELECT campaign AS key, ${sums} FROM campaign_counts
     WHERE ${scope(timer)} AND day >= @from AND day < @to GROUP BY campaign ${order}`;
  // Hour h of a day row counts when bit h is set; a day counts every row.
  const hourUniquesSql = (timer: boolean) =>
    `WITH RECURSIVE h(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM h WHERE n < 23)
     SELECT day + n * ${HOUR_MS} AS bucket, count(DISTINCT viewer) AS viewers,
       count(DISTINCT CASE WHEN (human_hours >> n) & 1 = 1 THEN viewer END) AS humans
     FROM render_viewers, h
     WHERE ${scope(timer)} AND day >= @first_day AND day <= @last_day AND (hours >> n) & 1 = 1
       AND day + n * ${HOUR_MS} IN (SELECT value FROM json_each(@buckets))
     GROUP BY bucket`;
  const dayUniquesSql = (timer: boolean) =>
    `SELECT day AS bucket, count(DISTINCT viewer) AS viewers,
       count(DISTINCT CASE WHEN human_hours <> 0 THEN viewer END) AS humans FROM render_viewers
     WHERE ${scope(timer)} AND day IN (SELECT value FROM json_each(@buckets))
     GROUP BY day`;
  const statements = {
    page: [db.prepare(pageSql(false)), db.prepare(pageSql(true))],
    buckets: [db.prepare(bucketsSql(false)), db.prepare(bucketsSql(true))],
    clicks: [db.prepare(clicksSql(false)), db.prepare(clicksSql(true))],
    byTimer: [db.prepare(byTimerSql(false)), db.prepare(byTimerSql(true))],
    byCampaign: [db.prepare(byCampaignSql(false)), db.prepare(byCampaignSql(true))],
    hour: [db.prepare(hourUniquesSql(false)), db.prepare(hourUniquesSql(true))],
    day: [db.prepare(dayUniquesSql(false)), db.prepare(dayUniquesSql(true))],
  };

  return {
    async recordRenderViews({ counts, viewers, clicks = [], campaigns = [] }) {
      if (counts.length + viewers.length + clicks.length + campaigns.length === 0) return;
      const labelled = campaignRows(campaigns);
      await write(() => {
        // Under the write lock: the labels a timer's day has cannot change while it is read.
        const known = new Map<string, Set<string>>();
        for (const row of labelled) {
          const day = `${row.timer_id}|${row.day}`;
          if (known.has(day)) continue;
          const rows = labelsOf.all(row.timer_id, row.day, OTHER_CAMPAIGN) as {
            campaign: string;
          }[];
          known.set(day, new Set(rows.map((r) => r.campaign)));
        }
        for (const row of boundCampaigns(labelled, known)) addCampaign.run(row);
        for (const c of clicks) {
          const { proxy, prefetch } = sourceViews({ views: c.clicks, source: c.source });
          addClicks.run(
            c.timer_id,
            c.hour,
            c.state,
            c.account_id,
            c.environment,
            c.clicks,
            proxy,
            prefetch,
          );
        }
        for (const c of counts) {
          const { proxy, prefetch } = sourceViews(c);
          addCount.run(
            c.timer_id,
            c.hour,
            c.kind,
            c.client,
            c.account_id,
            c.environment,
            c.views,
            proxy,
            prefetch,
          );
        }
        for (const v of viewers) {
          const human = v.human_hours ?? v.hours;
          markViewer.run(v.timer_id, v.day, v.viewer, v.account_id, v.environment, v.hours, human);
        }
      });
    },
    async listRenderAnalytics(query) {
      if (!(query.limit > 0)) return [];
      const size = query.granularity === "hour" ? HOUR_MS : DAY_MS;
      const t = query.timer_id === undefined ? 0 : 1;
      const params = {
        account_id: query.account_id,
        environment: query.environment,
        ...(t ? { timer_id: query.timer_id } : {}),
        size,
        from: query.from,
        to: query.to,
        after_end: query.after === undefined ? query.from : query.after + size,
        limit: query.limit,
      };
      const page = (statements.page[t]!.all(params) as { bucket: number }[]).map((r) => r.bucket);
      if (page.length === 0) return [];
      const inPage = { ...params, buckets: JSON.stringify(page) };
      const rows = statements.buckets[t]!.all(inPage) as {
        bucket: number;
        kind: RenderKind;
        client: ClientFamily;
        views: number;
        proxy_views: number;
        prefetch_views: number;
      }[];
      const clickRows = statements.clicks[t]!.all(inPage) as (Omit<ClickRow, "start"> & {
        bucket: number;
        state: ClickState;
      })[];
      const buckets = sumBuckets(
        rows.map((r) => ({ ...r, start: r.bucket })),
        clickRows.map((r) => ({ ...r, start: r.bucket })),
      );
      const starts = [...buckets.keys()].sort((a, b) => a - b);
      if (starts.length === 0) return [];
      const uniques = (
        query.granularity === "hour"
          ? statements.hour[t]!.all({
              account_id: query.account_id,
              environment: query.environment,
              ...(t ? { timer_id: query.timer_id } : {}),
              first_day: starts[0]! - (starts[0]! % DAY_MS),
              last_day: starts.at(-1)! - (starts.at(-1)! % DAY_MS),
              buckets: JSON.stringify(starts),
            })
          : statements.day[t]!.all({
              account_id: query.account_id,
              environment: query.environment,
              ...(t ? { timer_id: query.timer_id } : {}),
              buckets: JSON.stringify(starts),
            })
      ) as { bucket: number; viewers: number; humans: number }[];
      for (const u of uniques) {
        const b = buckets.get(u.bucket);
        if (b) {
          b.unique_viewers = u.viewers;
          b.human_unique_viewers = u.humans;
        }
      }
      return starts.map((s) => buckets.get(s)!);
    },
    async listAnalyticsTotals(query) {
      if (!(query.limit > 0)) return [];
      const t = query.timer_id === undefined ? 0 : 1;
      const rows = (query.by === "timer" ? statements.byTimer : statements.byCampaign)[t]!.all({
        account_id: query.account_id,
        environment: query.environment,
        ...(t ? { timer_id: query.timer_id } : {}),
        from: query.from,
        to: query.to,
        limit: query.limit,
      }) as TotalRow[];
      return rows.map(totalOf);
    },
    async analyticsSalt(day, create) {
      const known = readSalt.get(day) as { salt: string } | undefined;
      if (known) return known.salt;
      // Under the write lock: processes asking together agree on the first insert.
      return write(() => {
        insertSalt.run(day, create());
        return (readSalt.get(day) as { salt: string }).salt;
      });
    },
  };
}
