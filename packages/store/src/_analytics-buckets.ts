import type { ClientFamily, RenderAnalyticsBucket, RenderKind } from "./contract";

/** One summed row of an adapter's bucket query. */
export interface BucketRow {
  start: number;
  kind: RenderKind;
  client: ClientFamily;
  views: number;
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
      };
      buckets.set(row.start, bucket);
    }
    bucket.views += row.views;
    bucket.by_kind[row.kind] += row.views;
    bucket.by_client[row.client] += row.views;
  }
  return buckets;
}
