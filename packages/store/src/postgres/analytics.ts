import {
  boundCampaigns,
  type CampaignRow,
  campaignRows,
  sourceViews,
  sumBuckets,
  totalOf,
} from "../_analytics-buckets";
import {
  type AnalyticsStore,
  type ClickState,
  type ClientFamily,
  OTHER_CAMPAIGN,
  type RenderAnalyticsQuery,
  type RenderClickCount,
  type RenderKind,
  type RenderViewCount,
  type RenderViewerMark,
} from "../contract";
import type { Db, Query } from "./_db";
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
function scopeSql(
  p: Params,
  q: Pick<RenderAnalyticsQuery, "account_id" | "environment" | "timer_id">,
): string {
  const account = p.text(q.account_id);
  const environment = p.text(q.environment);
  return `account_id = ${account} AND environment = ${environment} AND ${
    q.timer_id === undefined
      ? `timer_id IN (SELECT id FROM timers
           WHERE account_id = ${account} AND environment = ${environment} AND deleted_at IS NULL)`
      : `timer_id = ${p.text(q.timer_id)}`
  }`;
}

/** A click count with its source's clicks in the columns they are stored in. */
type SourcedClicks = RenderClickCount & { proxy_clicks: number; prefetch_clicks: number };

/**
 * Writes a batch's campaign rows, each timer's day bounded to its first labels. The day's
 * advisory lock (taken in key order, so two batches cannot deadlock) makes reading the labels
 * it has and adding new ones one step for every process.
 */
async function writeCampaigns(query: Query, labelled: readonly CampaignRow[]): Promise<void> {
  const days = [...new Set(labelled.map((r) => `${r.timer_id}|${r.day}`))].sort();
  const lock = new Params();
  await query(
    `SELECT pg_advisory_xact_lock(hashtextextended(k, 41))
     FROM (SELECT k FROM unnest(${lock.texts(days)}) AS k ORDER BY k) AS days`,
    lock.values,
  );
  const read = new Params();
  const { rows } = await query<{ timer_id: string; day: string; campaign: string }>(
    `SELECT timer_id, day, campaign FROM campaign_counts
     WHERE (timer_id, day) IN (SELECT * FROM unnest(${read.texts(days.map((d) => d.split("|")[0]!))},
       ${read.bigs(days.map((d) => Number(d.split("|")[1])))}))
       AND campaign <> ${read.text(OTHER_CAMPAIGN)}`,
    read.values,
  );
  const known = new Map<string, Set<string>>();
  for (const row of rows) {
    const day = `${row.timer_id}|${ms(row.day)}`;
    const labels = known.get(day) ?? new Set<string>();
    known.set(day, labels);
    labels.add(row.campaign);
  }
  const out = boundCampaigns(labelled, known);
  const p = new Params();
  const column = <K extends keyof CampaignRow>(k: K) => out.map((r) => r[k]);
  await query(
    `INSERT INTO campaign_counts (timer_id, day, campaign, account_id, environment, views,
       proxy_views, prefetch_views, clicks, proxy_clicks, prefetch_clicks)
     SELECT * FROM unnest(${p.texts(column("timer_id"))}, ${p.bigs(column("day"))},
       ${p.texts(column("campaign"))}, ${p.texts(column("account_id"))},
       ${p.texts(column("environment"))}, ${p.bigs(column("views"))},
       ${p.bigs(column("proxy_views"))}, ${p.bigs(column("prefetch_views"))},
       ${p.bigs(column("clicks"))}, ${p.bigs(column("proxy_clicks"))},
       ${p.bigs(column("prefetch_clicks"))})
     ON CONFLICT (timer_id, day, campaign) DO UPDATE SET
       views = campaign_counts.views + excluded.views,
       proxy_views = campaign_counts.proxy_views + excluded.proxy_views,
       prefetch_views = campaign_counts.prefetch_views + excluded.prefetch_views,
       clicks = campaign_counts.clicks + excluded.clicks,
       proxy_clicks = campaign_counts.proxy_clicks + excluded.proxy_clicks,
       prefetch_clicks = campaign_counts.prefetch_clicks + excluded.prefetch_clicks`,
    p.values,
  );
}

/** Adds a batch's clicks, one row per key in key order (see `merged`). */
async function writeClicks(query: Query, input: readonly RenderClickCount[]): Promise<void> {
  const clicks = merged<SourcedClicks>(
    input.map((c) => {
      const { proxy, prefetch } = sourceViews({ views: c.clicks, source: c.source });
      return { ...c, proxy_clicks: proxy, prefetch_clicks: prefetch };
    }),
    (c) => `${c.timer_id}|${c.hour}|${c.state}`,
    (into, c) => {
      into.clicks += c.clicks;
      into.proxy_clicks += c.proxy_clicks;
      into.prefetch_clicks += c.prefetch_clicks;
    },
  );
  const p = new Params();
  await query(
    named(`INSERT INTO render_clicks
       (timer_id, hour, state, account_id, environment, clicks, proxy_clicks, prefetch_clicks)
     SELECT * FROM unnest(${p.texts(clicks.map((c) => c.timer_id))}, ${p.bigs(clicks.map((c) => c.hour))},
       ${p.texts(clicks.map((c) => c.state))}, ${p.texts(clicks.map((c) => c.account_id))},
       ${p.texts(clicks.map((c) => c.environment))}, ${p.bigs(clicks.map((c) => c.clicks))},
       ${p.bigs(clicks.map((c) => c.proxy_clicks))}, ${p.bigs(clicks.map((c) => c.prefetch_clicks))})
     ON CONFLICT (timer_id, hour, state) DO UPDATE SET
       clicks = render_clicks.clicks + excluded.clicks,
       proxy_clicks = render_clicks.proxy_clicks + excluded.proxy_clicks,
       prefetch_clicks = render_clicks.prefetch_clicks + excluded.prefetch_clicks`),
    p.values,
  );
}

/** Render counts, viewer sets and daily salts. */
export function createPostgresAnalyticsStore(db: Db): AnalyticsStore {
  return {
    async recordRenderViews(input) {
      const labelled = campaignRows(input.campaigns ?? []);
      const clicks = input.clicks ?? [];
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
      if (counts.length + viewers.length + clicks.length + labelled.length === 0) return;
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
      // One transaction; a deadlock with another writer is retried by `Db`. Named: every value
      // travels in an array, so the text is always the same. Campaigns, clicks, then views:
      // every writer locks in that order. A batch without labels or clicks is one statement.
      await db.transaction(async (query) => {
        if (labelled.length > 0) await writeCampaigns(query, labelled);
        if (clicks.length > 0) await writeClicks(query, clicks);
        if (counts.length + viewers.length > 0) await query(named(sql), p.values);
      });
    },
    async listRenderAnalytics(q) {
      if (!(q.limit > 0)) return [];
      const size = q.granularity === "hour" ? HOUR_MS : DAY_MS;
      // Each statement its own parameters: a value the text does not use is refused.
      const where = (p: Params) => {
        const s = p.big(size);
        const range = `hour >= ${p.big(q.from)} AND hour < ${p.big(q.to)} AND hour >= ${p.big(
          q.after === undefined ? q.from : q.after + size,
        )}`;
        return { s, where: `${scopeSql(p, q)} AND ${range}` };
      };
      const pp = new Params();
      const pw = where(pp);
      const pageRows = await db.query<{ bucket: string }>(
        `SELECT bucket FROM (
           SELECT (hour / ${pw.s}) * ${pw.s} AS bucket FROM render_views WHERE ${pw.where}
           UNION
           SELECT (hour / ${pw.s}) * ${pw.s} AS bucket FROM render_clicks WHERE ${pw.where}
         ) AS b ORDER BY bucket LIMIT ${pp.int(q.limit)}`,
        pp.values,
      );
      if (pageRows.rows.length === 0) return [];
      const page = pageRows.rows.map((r) => ms(r.bucket));
      const inPage = (p: Params) => {
        const w = where(p);
        return { s: w.s, where: `${w.where} AND (hour / ${w.s}) * ${w.s} = ANY (${p.bigs(page)})` };
      };
      const vp = new Params();
      const vw = inPage(vp);
      const cp = new Params();
      const cw = inPage(cp);
      const [viewRows, clickRows] = await Promise.all([
        db.query<{
          bucket: string;
          kind: RenderKind;
          client: ClientFamily;
          views: string;
          proxy_views: string;
          prefetch_views: string;
        }>(
          `SELECT (hour / ${vw.s}) * ${vw.s} AS bucket, kind, client, sum(views)::bigint AS views,
             sum(proxy_views)::bigint AS proxy_views, sum(prefetch_views)::bigint AS prefetch_views
           FROM render_views WHERE ${vw.where}
           GROUP BY 1, kind, client`,
          vp.values,
        ),
        db.query<{
          bucket: string;
          state: ClickState;
          clicks: string;
          proxy_clicks: string;
          prefetch_clicks: string;
        }>(
          `SELECT (hour / ${cw.s}) * ${cw.s} AS bucket, state, sum(clicks)::bigint AS clicks,
             sum(proxy_clicks)::bigint AS proxy_clicks,
             sum(prefetch_clicks)::bigint AS prefetch_clicks
           FROM render_clicks WHERE ${cw.where}
           GROUP BY 1, state`,
          cp.values,
        ),
      ]);
      const buckets = sumBuckets(
        viewRows.rows.map((r) => ({
          start: ms(r.bucket),
          kind: r.kind,
          client: r.client,
          views: ms(r.views),
          proxy_views: ms(r.proxy_views),
          prefetch_views: ms(r.prefetch_views),
        })),
        clickRows.rows.map((r) => ({
          start: ms(r.bucket),
          state: r.state,
          clicks: ms(r.clicks),
          proxy_clicks: ms(r.proxy_clicks),
          prefetch_clicks: ms(r.prefetch_clicks),
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
    async listAnalyticsTotals(q) {
      if (!(q.limit > 0)) return [];
      const p = new Params();
      const scope = scopeSql(p, q);
      const from = p.big(q.from);
      const to = p.big(q.to);
      const sums = `sum(views)::bigint AS views, sum(proxy_views)::bigint AS proxy_views,
        sum(prefetch_views)::bigint AS prefetch_views, sum(clicks)::bigint AS clicks,
        sum(proxy_clicks)::bigint AS proxy_clicks, sum(prefetch_clicks)::bigint AS prefetch_clicks`;
      const order = `ORDER BY views DESC, clicks DESC, key LIMIT ${p.int(q.limit)}`;
      const sql =
        q.by === "timer"
          ? `SELECT key, ${sums} FROM (
               SELECT timer_id AS key, views, proxy_views, prefetch_views, 0::bigint AS clicks,
                 0::bigint AS proxy_clicks, 0::bigint AS prefetch_clicks
               FROM render_views WHERE ${scope} AND hour >= ${from} AND hour < ${to}
               UNION ALL
               SELECT timer_id, 0, 0, 0, clicks, proxy_clicks, prefetch_clicks
               FROM render_clicks WHERE ${scope} AND hour >= ${from} AND hour < ${to}
             ) AS t GROUP BY key ${order}`
          : `SELECT campaign AS key, ${sums} FROM campaign_counts
             WHERE ${scope} AND day >= ${from} AND day < ${to} GROUP BY campaign ${order}`;
      const { rows } = await db.query<Record<string, string>>(sql, p.values);
      return rows.map((r) =>
        totalOf({
          key: r.key!,
          views: ms(r.views!),
          proxy_views: ms(r.proxy_views!),
          prefetch_views: ms(r.prefetch_views!),
          clicks: ms(r.clicks!),
          proxy_clicks: ms(r.proxy_clicks!),
          prefetch_clicks: ms(r.prefetch_clicks!),
        }),
      );
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
