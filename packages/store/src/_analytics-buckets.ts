import type { ClientFamily, RenderAnalyticsBucket, RenderKind, RenderViewCount } from "./contract";

/** A count's views in the columns of its source: `views` holds them all, whoever fetched. */
export function sourceViews(count: RenderViewCount): { proxy: number; prefetch: number } {
  return {
    proxy: count.source === "proxy" ? count.views : 0,
    prefetch: count.source === "prefetch" ? count.views : 0,
  };
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

/** Both adapters' bucket sums: rows of (bucket, kind, client) folded into buckets by start. */
export function sumBuckets(rows: readonly BucketRow[]): Map<number, RenderAnalyticsBucket> {
  const buckets = new Map<number, RenderAnalyticsBucket>();
  for (const row of rows) {
    let bucket = buckets.get(row.start);
    if (!bucket) {
      bucket = {
        start: row.start,
        views: 0,
        unique_viewers: 0,
        by_kind: { gif: 0, png: 0, page: 0, embed: 0 },
        by_client: { gmail: 0, apple_mail: 0, outlook: 0, yahoo: 0, other: 0 },
        by_source: { human: 0, proxy: 0, prefetch: 0 },
        human_unique_viewers: 0,
      };
      buckets.set(row.start, bucket);
    }
    bucket.views += row.views;
    bucket.by_kind[row.kind] += row.views;
    bucket.by_client[row.client] += row.views;
    bucket.by_source.proxy += row.proxy_views;
    bucket.by_source.prefetch += row.prefetch_views;
    bucket.by_source.human += row.views - row.proxy_views - row.prefetch_views;
  }
  return buckets;
}
