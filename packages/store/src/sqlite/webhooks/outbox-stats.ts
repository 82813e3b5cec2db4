import type { WebhookWorkerStore } from "../../contract";
import type { SqliteDatabase } from "../database";

/** `outboxStats`: the pending deliveries of every account, from the partial index of pending rows. */
export function createOutboxStatsQuery(
  db: SqliteDatabase,
): Pick<WebhookWorkerStore, "outboxStats"> {
  const stats = db.prepare(
    "SELECT count(*) AS pending, min(next_attempt_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'",
  );
  return {
    async outboxStats() {
      const row = stats.get() as { pending: number; oldest: number | null };
      return { pending: row.pending, oldest_due_at: row.oldest };
    },
  };
}
