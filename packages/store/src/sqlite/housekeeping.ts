import type { PurgeInput } from "../contract";
import type { HousekeepingQueries } from "../shared/queries";
import type { SqliteDatabase } from "./database";

/** Settled webhook deliveries deleted per transaction by the retention purge. */
const PURGE_BATCH = 500;

/** Prepares the secret and purge statements and returns their methods. */
export function createHousekeepingQueries(db: SqliteDatabase): HousekeepingQueries {
  const readSecret = db.prepare("SELECT value FROM secrets WHERE name = ?");
  const insertSecret = db.prepare("INSERT INTO secrets (name, value) VALUES (?, ?)");
  const purgeIdempotency = db.prepare("DELETE FROM idempotency_keys WHERE expires_at <= ?");
  const purgeLog = db.prepare("DELETE FROM request_log WHERE created_at < ?");
  const purgeWindows = db.prepare("DELETE FROM rate_windows WHERE window_start < ?");
  const purgeViews = db.prepare("DELETE FROM render_views WHERE hour < ?");
  const purgeViewers = db.prepare("DELETE FROM render_viewers WHERE day < ?");
  const purgeClicks = db.prepare("DELETE FROM render_clicks WHERE hour < ?");
  const purgeCampaigns = db.prepare("DELETE FROM campaign_counts WHERE day < ?");
  const purgeSalts = db.prepare("DELETE FROM analytics_salts WHERE day < ?");
  // Only settled viewers: one whose viewer.ended is still owed stays until it fires.
  const purgeViewerEvents = db.prepare(
    "DELETE FROM viewer_events WHERE end_check_at IS NULL AND started_at < ?",
  );
  const purgeViewerDays = db.prepare("DELETE FROM viewer_event_days WHERE day < ?");
  const purgeSessions = db.prepare("DELETE FROM user_sessions WHERE expires_at <= ?");
  const purgeLinks = db.prepare(
    "DELETE FROM user_password_links WHERE expires_at <= ? OR used_at IS NOT NULL",
  );
  const purgeSignIns = db.prepare("DELETE FROM sign_in_attempts WHERE window_start < ?");
  const oldSettled = db.prepare(
    `SELECT id, event_id FROM webhook_deliveries
     WHERE status <> 'pending' AND updated_at < ? ORDER BY updated_at LIMIT ?`,
  );
  // Ids travel as one JSON array.
  const dropAttempts = db.prepare(
    "DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT value FROM json_each(?))",
  );
  const dropDeliveries = db.prepare(
    "DELETE FROM webhook_deliveries WHERE id IN (SELECT value FROM json_each(?))",
  );
  const dropOrphanEvents = db.prepare(
    `DELETE FROM webhook_events WHERE id IN (SELECT value FROM json_each(?))
       AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)`,
  );

  // Under the write lock, so two processes starting together agree on one secret.
  const secretTx = db.transaction((name: string, create: () => string): string => {
    const row = readSecret.get(name) as { value: string } | undefined;
    if (row) return row.value;
    const value = create();
    insertSecret.run(name, value);
    return value;
  });

  const purgeTx = db.transaction((input: PurgeInput) => {
    purgeIdempotency.run(input.now);
    purgeLog.run(input.request_log_before);
    purgeWindows.run(input.rate_windows_before);
    purgeSessions.run(input.now);
    purgeLinks.run(input.now);
    if (input.sign_in_attempts_before !== undefined) {
      purgeSignIns.run(input.sign_in_attempts_before);
    }
    if (input.render_analytics_before !== undefined) {
      purgeViews.run(input.render_analytics_before);
      purgeViewers.run(input.render_analytics_before);
      purgeClicks.run(input.render_analytics_before);
      purgeCampaigns.run(input.render_analytics_before);
    }
    if (input.analytics_salts_before !== undefined) purgeSalts.run(input.analytics_salts_before);
    if (input.viewer_events_before !== undefined) {
      purgeViewerEvents.run(input.viewer_events_before);
      purgeViewerDays.run(input.viewer_events_before);
    }
  });
  // One batch of settled deliveries, their attempts and the events left without deliveries.
  const deliveryBatchTx = db.transaction((before: number): number => {
    const rows = oldSettled.all(before, PURGE_BATCH) as { id: string; event_id: string }[];
    if (rows.length === 0) return 0;
    const ids = JSON.stringify(rows.map((r) => r.id));
    dropAttempts.run(ids);
    dropDeliveries.run(ids);
    dropOrphanEvents.run(JSON.stringify([...new Set(rows.map((r) => r.event_id))]));
    return rows.length;
  });

  return {
    async getOrCreateSecret(name, create) {
      return secretTx.immediate(name, create);
    },
    async purge(input) {
      purgeTx.immediate(input);
      // Batch by batch, each its own transaction: other writers get the lock in between.
      while (deliveryBatchTx.immediate(input.webhook_deliveries_before) === PURGE_BATCH) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
