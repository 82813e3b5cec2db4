import {
  type AnalyticsTotal,
  CAMPAIGNS_PER_TIMER_DAY,
  type CampaignCount,
  type ClickState,
  type ClientFamily,
  OTHER_CAMPAIGN,
  type RenderAnalyticsBucket,
  type RenderKind,
  type RequestSource,
} from "./contract";

/** A count's views in the columns of its source: `views` holds them all, whoever fetched. */
export function sourceViews(count: { views: number; source?: RequestSource }): {
  proxy: number;
  prefetch: number;
} {
  return {
    proxy: count.source === "proxy" ? count.views : 0,
    prefetch: count.source === "prefetch" ? count.views : 0,
  };
}

/** A campaign count in the columns it is stored in: every source's part apart. */
export interface CampaignRow {
  timer_id: string;
  day: number;
  campaign: string;
  account_id: string;
  environment: string;
  views: number;
  proxy_views: number;
  prefetch_views: number;
  clicks: number;
  proxy_clicks: number;
  prefetch_clicks: number;
}

/** The campaign counts of a batch merged per (timer, day, label), in key order. */
export function campaignRows(counts: readonly CampaignCount[]): CampaignRow[] {
  const rows = new Map<string, CampaignRow>();
  for (const c of counts) {
    const key = `${c.timer_id}|${c.day}|${c.campaign}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        timer_id: c.timer_id,
        day: c.day,
        campaign: c.campaign,
        account_id: c.account_id,
        environment: c.environment,
        views: 0,
        proxy_views: 0,
        prefetch_views: 0,
        clicks: 0,
        proxy_clicks: 0,
        prefetch_clicks: 0,
      };
      rows.set(key, row);
    }
    const views = sourceViews(c);
    const clicks = sourceViews({ views: c.clicks, source: c.source });
    row.views += c.views;
    row.proxy_views += views.proxy;
    row.prefetch_views += views.prefetch;
    row.clicks += c.clicks;
    row.proxy_clicks += clicks.proxy;
    row.prefetch_clicks += clicks.prefetch;
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

/**
 * Files each row under its own label while its timer's day has room, else under `other`
 * (`known`: the labels each `timer|day` already has in the store, `other` not among them).
 * Rows the caller must write, merged again where several became `other`.
 */
export function boundCampaigns(
  rows: readonly CampaignRow[],
  known: Map<string, Set<string>>,
): CampaignRow[] {
  const out = new Map<string, CampaignRow>();
  for (const row of rows) {
    const day = `${row.timer_id}|${row.day}`;
    let labels = known.get(day);
    if (!labels) {
      labels = new Set();
      known.set(day, labels);
    }
    let campaign = row.campaign;
    if (campaign !== OTHER_CAMPAIGN && !labels.has(campaign)) {
      if (labels.size < CAMPAIGNS_PER_TIMER_DAY) labels.add(campaign);
      else campaign = OTHER_CAMPAIGN;
    }
    const key = `${day}|${campaign}`;
    const seen = out.get(key);
    if (!seen) out.set(key, { ...row, campaign });
    else {
      seen.views += row.views;
      seen.proxy_views += row.proxy_views;
      seen.prefetch_views += row.prefetch_views;
      seen.clicks += row.clicks;
      seen.proxy_clicks += row.proxy_clicks;
      seen.prefetch_clicks += row.prefetch_clicks;
    }
  }
  return [...out.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
}

/** One summed row of a totals query: a key's views and clicks with their sources' parts. */
export interface TotalRow {
  key: string;
  views: number;
  proxy_views: number;
  prefetch_views: number;
  clicks: number;
  proxy_clicks: number;
  prefetch_clicks: number;
}

/** A totals row as the contract answers it. */
export function totalOf(row: TotalRow): AnalyticsTotal {
  return {
    key: row.key,
    views: row.views,
    by_source: {
      human: row.views - row.proxy_views - row.prefetch_views,
      proxy: row.proxy_views,
      prefetch: row.prefetch_views,
    },
    clicks: row.clicks,
    clicks_by_source: {
      human: row.clicks - row.proxy_clicks - row.prefetch_clicks,
      proxy: row.proxy_clicks,
      prefetch: row.prefetch_clicks,
    },
  };
}

/** One summed row of an adapter's clicks query: a bucket's clicks in one state. */
export interface ClickRow {
  start: number;
  state: ClickState;
  clicks: number;
  proxy_clicks: number;
  prefetch_clicks: number;
}

/** One summed row of an adapter's bucket query. */
export interface BucketRow {
  start: number;
  kind: RenderKind;
  client: ClientFamily;
  views: number;
  proxy_views: number;
  prefetch_views: number;
}

/**
 * Both adapters' bucket sums: rows of (bucket, kind, client) and of (bucket, state) folded into
 * buckets by start.
 */
export function sumBuckets(
  rows: readonly BucketRow[],
  clickRows: readonly ClickRow[] = [],
): Map<number, RenderAnalyticsBucket> {
  const buckets = new Map<number, RenderAnalyticsBucket>();
  const bucketAt = (start: number) => {
    let bucket = buckets.get(start);
    if (!bucket) {
      bucket = {
        start,
        views: 0,
        unique_viewers: 0,
        by_kind: { gif: 0, png: 0, page: 0, embed: 0 },
        by_client: { gmail: 0, apple_mail: 0, outlook: 0, yahoo: 0, other: 0 },
        by_source: { human: 0, proxy: 0, prefetch: 0 },
        human_unique_viewers: 0,
        clicks: 0,
        clicks_by_source: { human: 0, proxy: 0, prefetch: 0 },
        clicks_by_state: { before: 0, running: 0, ended: 0 },
      };
      buckets.set(start, bucket);
    }
    return bucket;
  };
  for (const row of clickRows) {
    const bucket = bucketAt(row.start);
    bucket.clicks += row.clicks;
    bucket.clicks_by_state[row.state] += row.clicks;
    bucket.clicks_by_source.proxy += row.proxy_clicks;
    bucket.clicks_by_source.prefetch += row.prefetch_clicks;
    bucket.clicks_by_source.human += row.clicks - row.proxy_clicks - row.prefetch_clicks;
  }
  for (const row of rows) {
    const bucket = bucketAt(row.start);
    bucket.views += row.views;
    bucket.by_kind[row.kind] += row.views;
    bucket.by_client[row.client] += row.views;
    bucket.by_source.proxy += row.proxy_views;
    bucket.by_source.prefetch += row.prefetch_views;
    bucket.by_source.human += row.views - row.proxy_views - row.prefetch_views;
  }
  return buckets;
}
