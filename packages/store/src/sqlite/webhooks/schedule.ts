import type { AdvanceTimeRuleInput, DueTimeRule } from "../../contract";
import type { WebhookScheduleQueries } from "../../shared/queries";
import type { GroupWrite } from "../_group-commit";
import { fromRow, RULE_COLUMNS, type RuleRow, TIMER_COLUMNS, type TimerRow } from "../_rows";
import type { SqliteDatabase } from "../database";
import type { Outbox } from "./outbox";

/**
 * Prepares the schedule statements. The store knows nothing about timer math: the worker
 * computes instants and hands back events plus the new markers; the store only guarantees
 * that each advance happens once (compare-and-set) and commits with its deliveries.
 */
export function createWebhookScheduleQueries(
  db: SqliteDatabase,
  write: GroupWrite,
  outbox: Outbox,
): WebhookScheduleQueries {
  const due = db.prepare(
    `SELECT ${RULE_COLUMNS}, fired_through, next_fire_at FROM webhook_rules
     WHERE next_fire_at IS NOT NULL AND next_fire_at <= ?
     ORDER BY next_fire_at, id LIMIT ?`,
  );
  const timerById = db.prepare(
    `SELECT ${TIMER_COLUMNS} FROM timers
     WHERE id = ? AND account_id = ? AND environment = ? AND deleted_at IS NULL`,
  );
  const ruleById = db.prepare(
    `SELECT ${RULE_COLUMNS}, fired_through FROM webhook_rules
     WHERE id = ? AND account_id = ? AND environment = ?`,
  );
  const advance = db.prepare(
    "UPDATE webhook_rules SET fired_through = ?, next_fire_at = ? WHERE id = ?",
  );

  const readTimer = (rule: { timer_id: string; account_id: string; environment: string }) => {
    const row = timerById.get(rule.timer_id, rule.account_id, rule.environment) as
      | TimerRow
      | undefined;
    return row ? fromRow.timer(row) : null;
  };

  const advanceTx = (input: AdvanceTimeRuleInput): boolean => {
    const row = ruleById.get(input.rule_id, input.account_id, input.environment) as
      | (RuleRow & { fired_through: number })
      | undefined;
    // Another worker advanced it first (or the rule is gone): this computation is stale.
    if (!row || row.fired_through !== input.expected_fired_through) return false;
    const timer = readTimer(row);
    // The timer changed since the events were computed: they may be wrong; the change has
    // already asked for a recomputation (next_fire_at 0).
    if ((timer?.revision ?? null) !== input.timer_revision) return false;
    if (timer && input.events.length > 0) {
      outbox.enqueueForRule(timer, row, input.events, input.now);
    }
    advance.run(input.fired_through, input.next_fire_at, input.rule_id);
    return true;
  };

  return {
    async listDueTimeRules({ now, limit }) {
      if (!(limit > 0)) return [];
      const rows = due.all(now, limit) as (RuleRow & {
        fired_through: number;
        next_fire_at: number;
      })[];
      return rows.map(
        (row): DueTimeRule => ({
          rule: fromRow.rule(row),
          timer: readTimer(row),
          fired_through: row.fired_through,
          next_fire_at: row.next_fire_at,
        }),
      );
    },
    async advanceTimeRule(input) {
      return write(() => advanceTx(input));
    },
  };
}
