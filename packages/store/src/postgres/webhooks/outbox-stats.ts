import type { WebhookWorkerStore } from "../../contract";
import type { Db } from "../_db";
import { msOrNull } from "../_sql";

/** `outboxStats`: the pending deliveries of every account, from the partial index of pending rows. */
export function createOutboxStatsQuery(db: Db): Pick<WebhookWorkerStore, "outboxStats"> {
  return {
    async outboxStats() {
      const { rows } = await db.query<{ pending: number; oldest: string | null }>(
        "SELECT count(*)::int AS pending, min(next_attempt_at) AS oldest FROM webhook_deliveries WHERE status = 'pending'",
      );
      return { pending: rows[0]?.pending ?? 0, oldest_due_at: msOrNull(rows[0]?.oldest ?? null) };
    },
  };
}
