import type { RateGrant, ReserveRequestsInput, UsageIncrement, UsageMetric } from "../../contract";
import type { MeteringQueries } from "../../shared/queries";
import type { GroupWrite } from "../_group-commit";
import type { SqliteDatabase } from "../database";

/** Prepares the rate-window and usage statements and returns the metering methods. */
export function createMeteringQueries(db: SqliteDatabase, write: GroupWrite): MeteringQueries {
  // Grants min(want, room) in one statement: the upsert never raises a window past its limit.
  const take = db.prepare(
    `INSERT INTO rate_windows (bucket, window_start, hits) VALUES (@bucket, @window, min(@want, @limit))
     ON CONFLICT (bucket, window_start) DO UPDATE
       SET hits = hits + max(0, min(@want, @limit - hits))
     RETURNING hits`,
  );
  const read = db.prepare("SELECT hits FROM rate_windows WHERE bucket = ? AND window_start = ?");
  const addUsage = db.prepare(
    `INSERT INTO usage_counters (account_id, environment, cycle_id, metric, total)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (account_id, environment, cycle_id, metric) DO UPDATE SET total = total + excluded.total`,
  );
  const readUsage = db.prepare(
    "SELECT metric, total FROM usage_counters WHERE account_id = ? AND environment = ? AND cycle_id = ?",
  );

  // Runs inside a group-commit transaction (_group-commit.ts): the read and the upsert of a
  // bucket see no other writer between them, in this process or another.
  const reserveTx = (input: ReserveRequestsInput): RateGrant[] =>
    input.buckets.map(({ bucket, limit, want }) => {
      const before =
        (read.get(bucket, input.window_start) as { hits: number } | undefined)?.hits ?? 0;
      const { hits } = take.get({
        bucket,
        window: input.window_start,
        want: Math.max(0, Math.floor(want)),
        limit,
      }) as { hits: number };
      return { bucket, granted: hits - before, count: hits };
    });

  const usageTx = (increments: UsageIncrement[]): void => {
    for (const u of increments) {
      if (u.amount > 0) addUsage.run(u.account_id, u.environment, u.cycle_id, u.metric, u.amount);
    }
  };

  return {
    async reserveRequests(input) {
      return write(() => reserveTx(input));
    },
    async addUsage(increments) {
      if (increments.length === 0) return;
      await write(() => usageTx(increments));
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
