import { randomUUID } from "node:crypto";
import type { NewWebhookEvent, TimerRecord } from "../../contract";
import type { SqliteDatabase } from "../database";

/** Writes events and their deliveries; every method runs inside the caller's transaction. */
export interface Outbox {
  /**
   * Records change events of `timer` with one delivery per live, enabled destination that
   * wants them: through the destination's own `events`, or through a rule on the timer. An
   * event nobody wants is not stored.
   */
  enqueue(timer: TimerRecord, events: readonly NewWebhookEvent[], now: number): void;
  /** Records time-based events of one rule, delivered to that rule's destination only. */
  enqueueForRule(
    timer: TimerRecord,
    rule: { id: string; destination_id: string },
    events: readonly NewWebhookEvent[],
    now: number,
  ): void;
  /**
   * Records per-recipient events for several rules: each event once, with one delivery per
   * live destination (named by the oldest of its rules given, as change events do).
   */
  enqueueForRules(
    timer: TimerRecord,
    rules: readonly { id: string; destination_id: string }[],
    events: readonly NewWebhookEvent[],
    now: number,
  ): void;
  /** The timer changed: its time-based rules must recompute their schedule (next_fire_at 0). */
  timerChanged(timer: Pick<TimerRecord, "id" | "account_id" | "environment">): void;
}

/**
 * Prepares the outbox statements once. The outbox is what makes webhooks impossible to lose:
 * the event and its deliveries commit with the change that caused them, or not at all.
 */
export function createOutbox(db: SqliteDatabase): Outbox {
  // A destination subscribed through its own `events`, or through a rule on this timer (the
  // oldest matching rule is named on the delivery). Indexed by account and environment, so an
  // account without destinations pays one empty index probe per change.
  const targets = db.prepare(
    `SELECT id, rule_id FROM (
       SELECT d.id, d.events,
         (SELECT r.id FROM webhook_rules r, json_each(r.events) e
           WHERE r.account_id = d.account_id AND r.environment = d.environment
             AND r.timer_id = @timer_id AND r.destination_id = d.id AND e.value = @type
           ORDER BY r.created_at, r.id LIMIT 1) AS rule_id
       FROM webhook_destinations d
       WHERE d.account_id = @account_id AND d.environment = @environment
         AND d.deleted_at IS NULL AND d.enabled = 1)
     WHERE rule_id IS NOT NULL OR EXISTS (SELECT 1 FROM json_each(events) WHERE value = @type)
     ORDER BY id`,
  );
  // Most accounts have no destination at all. The query above still costs about 10 us (its
  // named parameters, its plan's json_each set-up); this probe of the same index, about 2.
  const anyDestination = db.prepare(
    `SELECT 1 FROM webhook_destinations
     WHERE account_id = ? AND environment = ? AND deleted_at IS NULL AND enabled = 1 LIMIT 1`,
  );
  const liveDestination = db.prepare(
    "SELECT 1 FROM webhook_destinations WHERE id = ? AND deleted_at IS NULL AND enabled = 1",
  );
  const insertEvent = db.prepare(
    `INSERT INTO webhook_events (id, account_id, environment, timer_id, type, payload, occurred_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertDelivery = db.prepare(
    `INSERT INTO webhook_deliveries (id, account_id, environment, event_id, destination_id, rule_id,
       status, attempt_count, next_attempt_at, next_trigger, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, 'scheduled', ?, ?)`,
  );
  const resetSchedules = db.prepare(
    `UPDATE webhook_rules SET next_fire_at = 0
     WHERE account_id = ? AND environment = ? AND timer_id = ? AND time_based = 1`,
  );

  const write = (
    timer: TimerRecord,
    event: NewWebhookEvent,
    to: { id: string; rule_id: string | null }[],
    now: number,
  ) => {
    if (to.length === 0) return;
    // The payload is serialised once: every attempt and replay sends these exact bytes.
    const payload = JSON.stringify(event.payload(timer));
    const scope = [timer.account_id, timer.environment] as const;
    insertEvent.run(event.id, ...scope, timer.id, event.type, payload, event.occurred_at, now);
    for (const target of to) {
      insertDelivery.run(
        randomUUID(),
        ...scope,
        event.id,
        target.id,
        target.rule_id,
        now,
        now,
        now,
      );
    }
  };

  return {
    enqueue(timer, events, now) {
      if (
        events.length === 0 ||
        anyDestination.get(timer.account_id, timer.environment) === undefined
      )
        return;
      for (const event of events) {
        const to = targets.all({
          account_id: timer.account_id,
          environment: timer.environment,
          timer_id: timer.id,
          type: event.type,
        }) as { id: string; rule_id: string | null }[];
        write(timer, event, to, now);
      }
    },
    enqueueForRule(timer, rule, events, now) {
      // A disabled destination misses what fires meanwhile, like change events do.
      if (!liveDestination.get(rule.destination_id)) return;
      for (const event of events) {
        write(timer, event, [{ id: rule.destination_id, rule_id: rule.id }], now);
      }
    },
    enqueueForRules(timer, rules, events, now) {
      const to = new Map<string, { id: string; rule_id: string }>();
      for (const rule of rules) {
        if (to.has(rule.destination_id) || !liveDestination.get(rule.destination_id)) continue;
        to.set(rule.destination_id, { id: rule.destination_id, rule_id: rule.id });
      }
      for (const event of events) write(timer, event, [...to.values()], now);
    },
    timerChanged(timer) {
      resetSchedules.run(timer.account_id, timer.environment, timer.id);
    },
  };
}
