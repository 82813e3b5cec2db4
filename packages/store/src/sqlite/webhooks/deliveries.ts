import type {
  ClaimedDelivery,
  RecordAttemptInput,
  ReplayWebhookDeliveryOutcome,
  Store,
  WebhookDelivery,
} from "../../contract";
import type { WebhookDeliveryQueries } from "../../shared/queries";
import { attemptValues, settlementValues } from "../../shared/values";
import type { GroupWrite } from "../_group-commit";
import {
  ATTEMPT_COLUMNS,
  type AttemptRow,
  type ClaimedRow,
  DELIVERY_COLUMNS,
  type DeliveryRow,
  fromRow,
  toAttempt,
} from "../_rows";
import { statementCache } from "../_statement-cache";
import type { SqliteDatabase } from "../database";

const FROM = "FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id";

/** Prepares the delivery statements and returns their methods. */
export function createWebhookDeliveryQueries(
  db: SqliteDatabase,
  write: GroupWrite,
): WebhookDeliveryQueries {
  const page = statementCache(db);
  const byId = db.prepare(
    `SELECT ${DELIVERY_COLUMNS} ${FROM} WHERE d.id = ? AND d.account_id = ? AND d.environment = ?`,
  );
  // One query for the attempts of a whole page: the ids travel as one JSON array.
  const attemptsOf = db.prepare(
    `SELECT ${ATTEMPT_COLUMNS} FROM webhook_attempts
     WHERE delivery_id IN (SELECT value FROM json_each(?)) ORDER BY delivery_id, attempt`,
  );
  const destinationState = db.prepare(
    "SELECT enabled, deleted_at FROM webhook_destinations WHERE id = ?",
  );
  const insertReplay = db.prepare(
    `INSERT INTO webhook_deliveries (id, account_id, environment, event_id, destination_id, rule_id,
       status, attempt_count, next_attempt_at, next_trigger, replay_of, created_at, updated_at)
     SELECT ?, account_id, environment, event_id, destination_id, rule_id,
       'pending', 0, ?, 'manual', id, ?, ?
     FROM webhook_deliveries WHERE id = ?`,
  );
  // A suspended account's deliveries are held, still pending, until it is active again.
  const NOT_HELD = `NOT EXISTS (SELECT 1 FROM accounts a
       WHERE a.id = webhook_deliveries.account_id AND a.status = 'suspended')`;
  // Read first, outside any transaction: an idle worker polls without taking the write lock.
  const anyDue = db.prepare(
    `SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
       AND (lease_until IS NULL OR lease_until <= ?) AND ${NOT_HELD} LIMIT 1`,
  );
  const due = db.prepare(
    `SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ?
       AND (lease_until IS NULL OR lease_until <= ?) AND ${NOT_HELD}
     ORDER BY next_attempt_at LIMIT ?`,
  );
  const lease = db.prepare(
    "UPDATE webhook_deliveries SET lease_until = ?, lease_worker = ? WHERE id = ?",
  );
  const claimed = db.prepare(
    `SELECT d.id, d.account_id, d.environment, d.attempt_count, d.next_trigger, d.lease_until,
       e.id AS event_id, e.type AS event_type, e.timer_id AS event_timer_id,
       e.payload AS event_payload, e.occurred_at AS event_occurred_at,
       w.id AS destination_id, w.url, w.enabled, w.deleted_at, w.secret, w.previous_secret,
       w.previous_secret_expires_at
     ${FROM} JOIN webhook_destinations w ON w.id = d.destination_id
     WHERE d.id = ?`,
  );
  // Compare-and-set on the lease and the attempt number: a worker whose lease was taken over
  // records nothing, so one attempt number is never recorded twice.
  const settle = db.prepare(
    `UPDATE webhook_deliveries SET status = ?, attempt_count = ?, next_attempt_at = ?,
       next_trigger = 'scheduled', lease_until = NULL, lease_worker = NULL, updated_at = ?
     WHERE id = ? AND status = 'pending' AND lease_worker = ? AND attempt_count = ?`,
  );
  const insertAttempt = db.prepare(
    `INSERT INTO webhook_attempts (${ATTEMPT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const disableDestination = db.prepare(
    `UPDATE webhook_destinations SET enabled = 0, disabled_reason = 'gone', updated_at = ?
     WHERE id = (SELECT destination_id FROM webhook_deliveries WHERE id = ?) AND enabled = 1`,
  );

  const withAttempts = (rows: DeliveryRow[]): WebhookDelivery[] => {
    if (rows.length === 0) return [];
    const attempts = attemptsOf.all(JSON.stringify(rows.map((r) => r.id))) as AttemptRow[];
    return rows.map((r) =>
      fromRow.delivery(r, attempts.filter((a) => a.delivery_id === r.id).map(toAttempt)),
    );
  };
  const read = (account_id: string, environment: string, id: string) => {
    const row = byId.get(id, account_id, environment) as DeliveryRow | undefined;
    return row ? withAttempts([row])[0]! : null;
  };

  const replayTx = (input: Parameters<Store["replayWebhookDelivery"]>[0]) => {
    const original = byId.get(input.id, input.account_id, input.environment) as
      | DeliveryRow
      | undefined;
    if (!original) return { kind: "not_found" } as const;
    const state = destinationState.get(original.destination_id) as
      | { enabled: number; deleted_at: number | null }
      | undefined;
    if (!state || state.deleted_at !== null) {
      return { kind: "destination_unavailable", reason: "deleted" } as const;
    }
    if (state.enabled !== 1)
      return { kind: "destination_unavailable", reason: "disabled" } as const;
    insertReplay.run(input.new_id, input.now, input.now, input.now, input.id);
    return {
      kind: "replayed",
      delivery: read(input.account_id, input.environment, input.new_id)!,
    } as const;
  };

  // Runs in an IMMEDIATE group-commit transaction: select and lease happen under the write
  // lock, so two processes on one file never lease the same row. (PostgreSQL adapters do the
  // same with SELECT ... FOR UPDATE SKIP LOCKED.)
  const claimTx = (input: Parameters<Store["claimDueDeliveries"]>[0]): ClaimedDelivery[] => {
    const ids = due.all(input.now, input.now, input.limit) as { id: string }[];
    const until = input.now + input.lease_ms;
    const out: ClaimedDelivery[] = [];
    for (const { id } of ids) {
      lease.run(until, input.worker_id, id);
      out.push(fromRow.claimedDelivery(claimed.get(id) as ClaimedRow, input.now));
    }
    return out;
  };

  const recordTx = (input: RecordAttemptInput): boolean => {
    const { attempt } = input;
    const changed = settle.run(...settlementValues(input), attempt.attempt - 1).changes;
    if (changed === 0) return false;
    insertAttempt.run(input.delivery_id, attempt.attempt, ...attemptValues(attempt));
    if (input.disable_destination) disableDestination.run(input.now, input.delivery_id);
    return true;
  };

  return {
    async listWebhookDeliveries(query) {
      if (!(query.limit > 0)) return [];
      const filtered = query.status !== undefined;
      const paged = query.after !== undefined;
      const statement = page(`${filtered}:${paged}`, () => pageSql(filtered, paged));
      const rows = statement.all({
        account_id: query.account_id,
        environment: query.environment,
        ...(filtered ? { status: query.status } : {}),
        ...(query.after ? { after_value: query.after.value, after_id: query.after.id } : {}),
        limit: query.limit,
      }) as DeliveryRow[];
      return withAttempts(rows);
    },
    async getWebhookDelivery(account_id, environment, id) {
      return read(account_id, environment, id);
    },
    async replayWebhookDelivery(input): Promise<ReplayWebhookDeliveryOutcome> {
      return write(() => replayTx(input));
    },
    async claimDueDeliveries(input) {
      if (!(input.limit > 0) || !anyDue.get(input.now, input.now)) return [];
      return write(() => claimTx(input));
    },
    async recordAttempt(input) {
      return write(() => recordTx(input));
    },
  };
}

/**
 * One page, newest first, strictly before `after`. A status filter gets its own statement so
 * the planner walks `webhook_deliveries_status` instead of filtering the whole history.
 */
function pageSql(filtered: boolean, paged: boolean): string {
  return `SELECT ${DELIVERY_COLUMNS} ${FROM}
    WHERE d.account_id = @account_id AND d.environment = @environment
      ${filtered ? "AND d.status = @status" : ""}
      ${paged ? "AND (d.created_at, d.id) < (@after_value, @after_id)" : ""}
    ORDER BY d.created_at DESC, d.id DESC
    LIMIT @limit`;
}
