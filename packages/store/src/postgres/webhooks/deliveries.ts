import type { ReplayWebhookDeliveryOutcome, WebhookAttempt } from "../../contract";
import type { WebhookDeliveryQueries } from "../../shared/queries";
import { attemptValues, settlementValues } from "../../shared/values";
import type { Db } from "../_db";
import { type ClaimedRow, DELIVERY_COLUMNS, type DeliveryRow, fromRow } from "../_rows";
import { Params } from "../_sql";
import { named } from "../_statements";

const FROM = "FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id";

/**
 * A delivery's columns and its attempts aggregated as a JSON array, as read into
 * `WithAttempts`: a page and its attempts in one round trip.
 */
const COLUMNS = `${DELIVERY_COLUMNS},
  (SELECT coalesce(json_agg(json_build_object(
      'attempt', a.attempt, 'trigger', a.attempt_trigger, 'started_at', a.started_at,
      'duration_ms', a.duration_ms, 'response_status', a.response_status,
      'response_body', a.response_body, 'error', a.error) ORDER BY a.attempt), '[]')
   FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts`;

/** json_agg writes bigint as JSON numbers: the attempts are records already. */
type WithAttempts = DeliveryRow & { attempts: WebhookAttempt[] };

const withAttempts = ({ attempts, ...row }: WithAttempts) => fromRow.delivery(row, attempts);

/**
 * The claim, in one statement: pick due, unleased pending deliveries in due order with
 * `FOR UPDATE SKIP LOCKED` (workers skip each other's rows instead of waiting; a row leased
 * and committed meanwhile is re-checked after the lock and no longer matches), lease them, and
 * return them with their event and destination. Walks the partial index of pending rows.
 */
const CLAIM = named(`
WITH due AS (
  SELECT id FROM webhook_deliveries
  WHERE status = 'pending' AND next_attempt_at <= $1::bigint
    AND (lease_until IS NULL OR lease_until <= $1::bigint)
    -- A suspended account's deliveries are held, still pending, until it is active again.
    AND NOT EXISTS (SELECT 1 FROM accounts a
      WHERE a.id = webhook_deliveries.account_id AND a.status = 'suspended')
  ORDER BY next_attempt_at
  LIMIT $2
  FOR UPDATE SKIP LOCKED
), leased AS (
  UPDATE webhook_deliveries d SET lease_until = $3::bigint, lease_worker = $4::text
  FROM due WHERE d.id = due.id
  RETURNING d.id, d.account_id, d.environment, d.event_id, d.destination_id, d.attempt_count,
    d.next_trigger, d.lease_until, d.next_attempt_at
)
SELECT l.id, l.account_id, l.environment, l.attempt_count, l.next_trigger, l.lease_until,
  e.id AS event_id, e.type AS event_type, e.timer_id AS event_timer_id,
  e.payload AS event_payload, e.occurred_at AS event_occurred_at,
  w.id AS destination_id, w.url, w.enabled, w.deleted_at, w.secret, w.previous_secret,
  w.previous_secret_expires_at
FROM leased l JOIN webhook_events e ON e.id = l.event_id
  JOIN webhook_destinations w ON w.id = l.destination_id
ORDER BY l.next_attempt_at, l.id`);

/**
 * Compare-and-set on the lease holder and the attempt number, with the attempt row and the
 * destination's `gone` state in the same statement: a worker whose lease was taken over
 * records nothing, so one attempt number is never recorded twice.
 */
const RECORD = named(`
WITH settled AS (
  UPDATE webhook_deliveries SET status = $1::text, attempt_count = $2::integer,
    next_attempt_at = $3::bigint, next_trigger = 'scheduled', lease_until = NULL,
    lease_worker = NULL, updated_at = $4::bigint
  WHERE id = $5::text AND status = 'pending' AND lease_worker = $6::text
    AND attempt_count = $2::integer - 1
  RETURNING id, destination_id
), attempt AS (
  INSERT INTO webhook_attempts (delivery_id, attempt, attempt_trigger, started_at, duration_ms,
    response_status, response_body, error)
  SELECT id, $2::integer, $7::text, $8::bigint, $9::double precision, $10::integer, $11::text,
    $12::text
  FROM settled
), gone AS (
  UPDATE webhook_destinations SET enabled = false, disabled_reason = 'gone', updated_at = $4::bigint
  WHERE $13::boolean AND enabled AND id IN (SELECT destination_id FROM settled)
)
SELECT count(*)::int AS settled FROM settled`);

/** The delivery methods: each is one statement. */
export function createWebhookDeliveryQueries(db: Db): WebhookDeliveryQueries {
  const read = async (account_id: string, environment: string, id: string) => {
    const { rows } = await db.query<WithAttempts>(
      `SELECT ${COLUMNS} ${FROM} WHERE d.id = $1 AND d.account_id = $2 AND d.environment = $3`,
      [id, account_id, environment],
    );
    return rows[0] ? withAttempts(rows[0]) : null;
  };

  return {
    async listWebhookDeliveries(query) {
      if (!(query.limit > 0)) return [];
      const p = new Params();
      // A status filter walks webhook_deliveries_status instead of filtering the history.
      const sql = `SELECT ${COLUMNS} ${FROM}
        WHERE d.account_id = ${p.text(query.account_id)} AND d.environment = ${p.text(query.environment)}
          ${query.status !== undefined ? `AND d.status = ${p.text(query.status)}` : ""}
          ${
            query.after
              ? `AND (d.created_at, d.id) < (${p.big(query.after.value)}, ${p.text(query.after.id)})`
              : ""
          }
        ORDER BY d.created_at DESC, d.id DESC
        LIMIT ${p.int(query.limit)}`;
      const { rows } = await db.query<WithAttempts>(sql, p.values);
      return rows.map(withAttempts);
    },
    getWebhookDelivery: read,
    async replayWebhookDelivery(input): Promise<ReplayWebhookDeliveryOutcome> {
      // One statement reads the original and its destination and inserts the replay only
      // when the destination is live and enabled; the new row is built from what it read.
      const { rows } = await db.query<
        WithAttempts & { dest_enabled: boolean | null; dest_deleted: boolean | null }
      >(
        `WITH original AS (
           SELECT ${COLUMNS}, w.enabled AS dest_enabled, w.deleted_at IS NOT NULL AS dest_deleted
           ${FROM} LEFT JOIN webhook_destinations w ON w.id = d.destination_id
           WHERE d.id = $1::text AND d.account_id = $2::text AND d.environment = $3::text
         ), inserted AS (
           INSERT INTO webhook_deliveries (id, account_id, environment, event_id, destination_id,
             rule_id, status, attempt_count, next_attempt_at, next_trigger, replay_of, created_at,
             updated_at)
           SELECT $4::text, account_id, environment, event_id, destination_id, rule_id, 'pending', 0,
             $5::bigint, 'manual', id, $5::bigint, $5::bigint
           FROM original WHERE dest_enabled AND NOT dest_deleted
         )
         SELECT * FROM original`,
        [input.id, input.account_id, input.environment, input.new_id, input.now],
      );
      const original = rows[0];
      if (!original) return { kind: "not_found" };
      if (original.dest_enabled === null || original.dest_deleted) {
        return { kind: "destination_unavailable", reason: "deleted" };
      }
      if (!original.dest_enabled) return { kind: "destination_unavailable", reason: "disabled" };
      const { dest_enabled: _, dest_deleted: __, attempts: ___, ...row } = original;
      return {
        kind: "replayed",
        delivery: fromRow.delivery(
          {
            ...row,
            id: input.new_id,
            status: "pending",
            next_attempt_at: input.now,
            replay_of: original.id,
            created_at: input.now,
            updated_at: input.now,
          },
          [],
        ),
      };
    },
    async claimDueDeliveries(input) {
      if (!(input.limit > 0)) return [];
      const { rows } = await db.query<ClaimedRow>(CLAIM, [
        input.now,
        input.limit,
        input.now + input.lease_ms,
        input.worker_id,
      ]);
      return rows.map((r) => fromRow.claimedDelivery(r, input.now));
    },
    async recordAttempt(input) {
      const { rows } = await db.query<{ settled: number }>(RECORD, [
        ...settlementValues(input),
        ...attemptValues(input.attempt),
        input.disable_destination === true,
      ]);
      return rows[0]!.settled > 0;
    },
  };
}
