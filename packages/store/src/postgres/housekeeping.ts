import type { HousekeepingQueries } from "../shared/queries";
import type { Db } from "./_db";
import { getOrCreateValue } from "./_keyed-value";

/** Settled webhook deliveries deleted per statement by the retention purge. */
const PURGE_BATCH = 500;

/** The secret and purge methods. */
export function createHousekeepingQueries(db: Db): HousekeepingQueries {
  return {
    async getOrCreateSecret(name, create) {
      return getOrCreateValue(db, { table: "secrets", key: "name", value: "value" }, name, create);
    },
    async purge(input) {
      const { now, request_log_before, rate_windows_before, webhook_deliveries_before } = input;
      // One statement: all three deletes commit together or not at all. Row locks only.
      await db.query(
        `WITH idempotency AS (
           DELETE FROM idempotency_keys WHERE expires_at <= $1
         ), log AS (
           DELETE FROM request_log WHERE created_at < $2
         )
         DELETE FROM rate_windows WHERE window_start < $3`,
        [now, request_log_before, rate_windows_before],
      );
      // Dead dashboard sessions and links, and old sign-in windows (when a cutoff is given).
      await db.query(
        `WITH sessions AS (
           DELETE FROM user_sessions WHERE expires_at <= $1
         ), links AS (
           DELETE FROM user_password_links WHERE expires_at <= $1 OR used_at IS NOT NULL
         )
         DELETE FROM sign_in_attempts WHERE window_start < $2`,
        [now, input.sign_in_attempts_before ?? null],
      );
      // Analytics and tracked viewers: one statement, each cutoff applied only when given.
      await db.query(
        `WITH views AS (
           DELETE FROM render_views WHERE hour < $1
         ), viewers AS (
           DELETE FROM render_viewers WHERE day < $1
         ), clicks AS (
           DELETE FROM render_clicks WHERE hour < $1
         ), campaigns AS (
           DELETE FROM campaign_counts WHERE day < $1
         ), salts AS (
           DELETE FROM analytics_salts WHERE day < $2
         ), tracked AS (
           DELETE FROM viewer_events WHERE end_check_at IS NULL AND started_at < $3
         )
         DELETE FROM viewer_event_days WHERE day < $3`,
        [
          input.render_analytics_before ?? null,
          input.analytics_salts_before ?? null,
          input.viewer_events_before ?? null,
        ],
      );
      // Settled deliveries in bounded batches, each one statement: attempts, deliveries and the
      // events no other delivery needs go together. SKIP LOCKED leaves rows a worker holds.
      for (;;) {
        const { rows } = await db.query<{ purged: number }>(
          `WITH doomed AS (
             SELECT id, event_id FROM webhook_deliveries
             WHERE status <> 'pending' AND updated_at < $1::bigint
             ORDER BY updated_at LIMIT $2
             FOR UPDATE SKIP LOCKED
           ), attempts AS (
             DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM doomed)
           ), deliveries AS (
             DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM doomed)
           ), events AS (
             -- The statement sees the rows as before its own deletes: skip the doomed ones.
             DELETE FROM webhook_events e
             WHERE e.id IN (SELECT event_id FROM doomed)
               AND NOT EXISTS (
                 SELECT 1 FROM webhook_deliveries x
                 WHERE x.event_id = e.id AND x.id NOT IN (SELECT id FROM doomed)
               )
           )
           SELECT count(*)::int AS purged FROM doomed`,
          [webhook_deliveries_before, PURGE_BATCH],
        );
        if ((rows[0]?.purged ?? 0) < PURGE_BATCH) break;
      }
    },
  };
}
