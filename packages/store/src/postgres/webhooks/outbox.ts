import type { NewWebhookEvent, TimerRecord } from "../../contract";
import type { Params } from "../_sql";

/** Who the events of one write go to. */
export type OutboxTargets =
  /** Destinations subscribed through their own `events`, or through a rule on the timer. */
  | { kind: "subscribers" }
  /** Time-based events of one rule: that rule's destination only, while it is live. */
  | { kind: "rule"; rule_id: string; destination_id: string }
  /**
   * Per-recipient events: one delivery per live destination of these rules, named by the
   * first of its rules listed (callers list them oldest first).
   */
  | { kind: "rules"; rules: readonly { id: string; destination_id: string }[] };

/** Events with their payloads serialised (once: every attempt sends these bytes). */
export interface SerialisedEvent {
  id: string;
  type: string;
  payload: string;
  occurred_at: number;
}

/** Calls each event's payload builder with the row as written. */
export function serialiseEvents(
  timer: TimerRecord,
  events: readonly NewWebhookEvent[],
): SerialisedEvent[] {
  return events.map((e) => ({
    id: e.id,
    type: e.type,
    payload: JSON.stringify(e.payload(timer)),
    occurred_at: e.occurred_at,
  }));
}

/**
 * The CTEs that put `events` in the outbox as part of the caller's statement: the events and
 * one delivery per destination that wants them commit with the change, or not at all. An event
 * nobody wants is not stored. `guard` (a CTE name) makes it all conditional on that CTE
 * returning a row, e.g. the timer update that wins its revision check.
 *
 * The destinations are read in the statement's snapshot; a destination created concurrently
 * is ordered after this change, as it would be with one writer at a time.
 */
export function outboxCtes(
  p: Params,
  timer: Pick<TimerRecord, "id" | "account_id" | "environment">,
  events: readonly SerialisedEvent[],
  targets: OutboxTargets,
  now: number,
  guard?: string,
): string[] {
  const account = p.text(timer.account_id);
  const environment = p.text(timer.environment);
  const timerId = p.text(timer.id);
  const at = p.big(now);
  const input = `ob_in AS (
    SELECT * FROM unnest(${p.texts(events.map((e) => e.id))}, ${p.texts(events.map((e) => e.type))},
      ${p.texts(events.map((e) => e.payload))}, ${p.bigs(events.map((e) => e.occurred_at))})
      AS e (id, type, payload, occurred_at)
    ${guard ? `WHERE EXISTS (SELECT 1 FROM ${guard})` : ""}
  )`;
  const wanted =
    targets.kind === "subscribers"
      ? // The oldest matching rule is named on the delivery; a destination gets one delivery
        // per event however many of its rules match. Indexed by account and environment, so an
        // account without destinations pays one empty index probe.
        `ob_wanted AS (
          SELECT event_id, destination_id, rule_id FROM (
            SELECT e.id AS event_id, d.id AS destination_id,
              (SELECT r.id FROM webhook_rules r
                WHERE r.account_id = d.account_id AND r.environment = d.environment
                  AND r.timer_id = ${timerId} AND r.destination_id = d.id AND e.type = ANY (r.events)
                ORDER BY r.created_at, r.id LIMIT 1) AS rule_id,
              e.type = ANY (d.events) AS subscribed
            FROM ob_in e JOIN webhook_destinations d
              ON d.account_id = ${account} AND d.environment = ${environment}
                AND d.deleted_at IS NULL AND d.enabled
          ) t WHERE rule_id IS NOT NULL OR subscribed
        )`
      : targets.kind === "rules"
        ? `ob_wanted AS (
          SELECT DISTINCT ON (e.id, d.id) e.id AS event_id, d.id AS destination_id, r.rule_id
          FROM ob_in e
          CROSS JOIN unnest(${p.texts(targets.rules.map((r) => r.id))},
            ${p.texts(targets.rules.map((r) => r.destination_id))}) WITH ORDINALITY
            AS r (rule_id, destination_id, n)
          JOIN webhook_destinations d
            ON d.id = r.destination_id AND d.deleted_at IS NULL AND d.enabled
          ORDER BY e.id, d.id, r.n
        )`
        : // A disabled destination misses what fires meanwhile, like change events do.
          `ob_wanted AS (
          SELECT e.id AS event_id, d.id AS destination_id, ${p.text(targets.rule_id)} AS rule_id
          FROM ob_in e JOIN webhook_destinations d
            ON d.id = ${p.text(targets.destination_id)} AND d.deleted_at IS NULL AND d.enabled
        )`;
  return [
    input,
    wanted,
    `ob_events AS (
      INSERT INTO webhook_events (id, account_id, environment, timer_id, type, payload, occurred_at, created_at)
      SELECT e.id, ${account}, ${environment}, ${timerId}, e.type, e.payload, e.occurred_at, ${at}
      FROM ob_in e WHERE e.id IN (SELECT event_id FROM ob_wanted)
      RETURNING id
    )`,
    `ob_deliveries AS (
      INSERT INTO webhook_deliveries (id, account_id, environment, event_id, destination_id, rule_id,
        status, attempt_count, next_attempt_at, next_trigger, created_at, updated_at)
      SELECT gen_random_uuid()::text, ${account}, ${environment}, w.event_id, w.destination_id,
        w.rule_id, 'pending', 0, ${at}, 'scheduled', ${at}, ${at}
      FROM ob_wanted w JOIN ob_events ev ON ev.id = w.event_id
    )`,
  ];
}

/**
 * The CTE that marks the timer's time-based rules for recomputation (next_fire_at 0): any
 * change may move the timer's end. Conditional on `guard` like the outbox.
 */
export function scheduleResetCte(
  p: Params,
  timer: Pick<TimerRecord, "id" | "account_id" | "environment">,
  guard: string,
): string {
  return `sched AS (
    UPDATE webhook_rules SET next_fire_at = 0
    WHERE account_id = ${p.text(timer.account_id)} AND environment = ${p.text(timer.environment)}
      AND timer_id = ${p.text(timer.id)} AND time_based AND EXISTS (SELECT 1 FROM ${guard})
  )`;
}

/** Whether the account and environment have any live, enabled destination (SQL expression). */
export function hasDestinationsSql(account: string, environment: string): string {
  return `EXISTS (SELECT 1 FROM webhook_destinations
    WHERE account_id = ${account} AND environment = ${environment} AND deleted_at IS NULL AND enabled)`;
}
