import type { CountRequestInput, CountRequestResult, Store, UsageMetric } from "../types";
import { usageIncrement } from "./_usage";
import type { SqliteDatabase } from "./database";

/** The metering methods of the store, over statements prepared once. */
export type MeteringQueries = Pick<Store, "countRequest" | "getUsage">;

/** Prepares the rate-window and usage statements and returns the metering methods. */
export function createMeteringQueries(db: SqliteDatabase): MeteringQueries {
  const readWindow = db.prepare(
    "SELECT hits FROM rate_windows WHERE bucket = ? AND window_start = ?",
  );
  const bumpWindow = db.prepare(
    `INSERT INTO rate_windows (bucket, window_start, hits) VALUES (?, ?, 1)
     ON CONFLICT (bucket, window_start) DO UPDATE SET hits = hits + 1
     RETURNING hits`,
  );
  const bumpUsage = usageIncrement(db);
  const readUsage = db.prepare(
    "SELECT metric, total FROM usage_counters WHERE account_id = ? AND environment = ? AND cycle_id = ?",
  );

  // Hot path (every API request): reads then writes under one write lock, so no request can
  // slip in between the check and the increment.
  const countTx = db.transaction((input: CountRequestInput): CountRequestResult => {
    const counts: Record<string, number> = {};
    let allowed = true;
    for (const { bucket, limit } of input.buckets) {
      const row = readWindow.get(bucket, input.window_start) as { hits: number } | undefined;
      const hits = row?.hits ?? 0;
      counts[bucket] = hits;
      if (hits >= limit) allowed = false;
    }
    // A refused request increments nothing: it must not eat into the next request's budget.
    if (!allowed) return { allowed, counts };
    for (const { bucket } of input.buckets) {
      counts[bucket] = (bumpWindow.get(bucket, input.window_start) as { hits: number }).hits;
    }
    const { account_id, environment, cycle_id } = input.usage;
    bumpUsage.run(account_id, environment, cycle_id, "api_requests");
    return { allowed, counts };
  });

  return {
    async countRequest(input) {
      return countTx.immediate(input);
    },
    async getUsage(account_id, environment, cycle_id) {
      const usage: Record<UsageMetric, number> = { new_timers: 0, api_requests: 0 };
      const rows = readUsage.all(account_id, environment, cycle_id) as {
        metric: UsageMetric;
        total: number;
      }[];
      for (const row of rows) usage[row.metric] = row.total;
      return usage;
    },
  };
}
