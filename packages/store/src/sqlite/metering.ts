import type { CountRequestInput, CountRequestResult, Store, UsageMetric } from "../types";
import type { GroupWrite } from "./_group-commit";
import { usageIncrement } from "./_usage";
import type { SqliteDatabase } from "./database";

/** The metering methods of the store, over statements prepared once. */
export type MeteringQueries = Pick<Store, "countRequest" | "getUsage">;

/** Prepares the rate-window and usage statements and returns the metering methods. */
export function createMeteringQueries(db: SqliteDatabase, write: GroupWrite): MeteringQueries {
  const bumpWindow = db.prepare(
    `INSERT INTO rate_windows (bucket, window_start, hits) VALUES (?, ?, 1)
     ON CONFLICT (bucket, window_start) DO UPDATE SET hits = hits + 1
     RETURNING hits`,
  );
  const bumpUsage = usageIncrement(db);
  const readUsage = db.prepare(
    "SELECT metric, total FROM usage_counters WHERE account_id = ? AND environment = ? AND cycle_id = ?",
  );

  const undoWindow = db.prepare(
    "UPDATE rate_windows SET hits = hits - 1 WHERE bucket = ? AND window_start = ?",
  );

  // Hot path (every API request), run inside a group-commit transaction (_group-commit.ts),
  // so no request slips in between the check and the increment. Increment first and undo on
  // refusal: the common case (allowed) then costs writes only, no reads.
  const countTx = (input: CountRequestInput): CountRequestResult => {
    const counts: Record<string, number> = {};
    let allowed = true;
    for (const { bucket, limit } of input.buckets) {
      const hits = (bumpWindow.get(bucket, input.window_start) as { hits: number }).hits;
      counts[bucket] = hits;
      if (hits > limit) allowed = false;
    }
    if (!allowed) {
      // A refused request increments nothing: it must not eat into the next request's budget.
      for (const { bucket } of input.buckets) {
        undoWindow.run(bucket, input.window_start);
        counts[bucket] = (counts[bucket] ?? 1) - 1;
      }
      return { allowed, counts };
    }
    const { account_id, environment, cycle_id } = input.usage;
    bumpUsage.run(account_id, environment, cycle_id, "api_requests");
    return { allowed, counts };
  };

  return {
    async countRequest(input) {
      return write(() => countTx(input));
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
