import type { RateGrant, ReserveRequestsInput, UsageIncrement, UsageMetric } from "../../contract";
import type { MeteringQueries } from "../../shared/queries";
import type { Db } from "../_db";
import { ms } from "../_sql";
import { named } from "../_statements";

/** How many (bucket, window) rows this process remembers creating; cleared when full. */
const KNOWN_WINDOWS_MAX = 10_000;

/**
 * ONE statement in its own implicit transaction: lock the window rows of every bucket (in
 * bucket order, so two reservations never deadlock), grant each `min(want, limit - hits)` on
 * the locked count, and add it. Row locks on those buckets only: reservations of other keys and
 * accounts never wait.
 */
const RESERVE = named(`
WITH input AS (
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS i (bucket, lim, want)
), locked AS (
  SELECT w.bucket, w.hits FROM rate_windows w
  WHERE w.window_start = $4::bigint AND w.bucket = ANY ($1::text[])
  ORDER BY w.bucket
  FOR UPDATE
), grants AS (
  SELECT i.bucket, greatest(0, least(i.want, i.lim - l.hits)) AS granted
  FROM input i JOIN locked l ON l.bucket = i.bucket
), bumped AS (
  UPDATE rate_windows w SET hits = w.hits + g.granted FROM grants g
  WHERE w.window_start = $4::bigint AND w.bucket = g.bucket
  RETURNING w.bucket, w.hits
)
SELECT g.bucket, g.granted, b.hits FROM grants g JOIN bumped b ON b.bucket = g.bucket`);

/** Creates missing window rows at 0, so `RESERVE` finds a row to lock for every bucket. */
const OPEN_WINDOWS = named(`
INSERT INTO rate_windows (bucket, window_start, hits)
SELECT bucket, $2::bigint, 0 FROM unnest($1::text[]) AS b (bucket)
ON CONFLICT (bucket, window_start) DO NOTHING`);

/** Adds usage increments, one row per counter (the caller merges them). */
const ADD_USAGE = named(`
INSERT INTO usage_counters AS u (account_id, environment, cycle_id, metric, total)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
ON CONFLICT (account_id, environment, cycle_id, metric)
  DO UPDATE SET total = u.total + EXCLUDED.total`);

const USAGE = named(
  "SELECT metric, total FROM usage_counters WHERE account_id = $1 AND environment = $2 AND cycle_id = $3",
);

/** The rate-window and usage methods. */
export function createMeteringQueries(db: Db): MeteringQueries {
  // Windows this process opened (or saw): the first reservation of a bucket in a window opens
  // its row first (one more round trip); later ones go straight to RESERVE. Only a hint: a
  // purged or unknown row makes RESERVE miss it, and the window is opened then.
  const known = new Set<string>();

  const reserveRequests = async (input: ReserveRequestsInput): Promise<RateGrant[]> => {
    // One entry per bucket; a bucket named twice keeps its tighter limit and larger want.
    const merged = new Map<string, { limit: number; want: number }>();
    for (const { bucket, limit, want } of input.buckets) {
      const seen = merged.get(bucket);
      merged.set(bucket, {
        limit: Math.min(limit, seen?.limit ?? Number.POSITIVE_INFINITY),
        want: Math.max(0, Math.floor(want), seen?.want ?? 0),
      });
    }
    const buckets = [...merged.keys()];
    if (buckets.length === 0) return [];
    const keys = buckets.map((b) => `${input.window_start}:${b}`);
    const values = [
      buckets,
      buckets.map((b) => merged.get(b)!.limit),
      buckets.map((b) => merged.get(b)!.want),
      input.window_start,
    ];
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0 || keys.some((k) => !known.has(k))) {
        await db.query(OPEN_WINDOWS, [buckets, input.window_start]);
        if (known.size + keys.length > KNOWN_WINDOWS_MAX) known.clear();
        for (const k of keys) known.add(k);
      }
      const { rows } = await db.query<{ bucket: string; granted: string; hits: string }>(
        RESERVE,
        values,
      );
      if (rows.length < buckets.length) continue; // purged meanwhile: open again
      const byBucket = new Map(rows.map((r) => [r.bucket, r]));
      return input.buckets.map(({ bucket }) => {
        const row = byBucket.get(bucket)!;
        return { bucket, granted: ms(row.granted), count: ms(row.hits) };
      });
    }
    throw new Error("tminus postgres store: rate windows vanished three times in a row");
  };

  return {
    reserveRequests,
    async addUsage(increments: UsageIncrement[]) {
      // One row per counter: ON CONFLICT may not touch a row twice in one statement.
      const sums = new Map<string, UsageIncrement>();
      for (const u of increments) {
        if (!(u.amount > 0)) continue;
        const key = `${u.account_id}\u0000${u.environment}\u0000${u.cycle_id}\u0000${u.metric}`;
        const seen = sums.get(key);
        sums.set(key, seen ? { ...seen, amount: seen.amount + u.amount } : { ...u });
      }
      if (sums.size === 0) return;
      const rows = [...sums.values()];
      await db.query(ADD_USAGE, [
        rows.map((r) => r.account_id),
        rows.map((r) => r.environment),
        rows.map((r) => r.cycle_id),
        rows.map((r) => r.metric),
        rows.map((r) => r.amount),
      ]);
    },
    async getUsage(account_id, environment, cycle_id) {
      const usage: Record<UsageMetric, number> = { new_timers: 0, api_requests: 0 };
      const { rows } = await db.query<{ metric: UsageMetric; total: string }>(USAGE, [
        account_id,
        environment,
        cycle_id,
      ]);
      for (const row of rows) usage[row.metric] = ms(row.total);
      return usage;
    },
  };
}
