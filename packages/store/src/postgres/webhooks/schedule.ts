import type { DueTimeRule } from "../../contract";
import type { WebhookScheduleQueries } from "../../shared/queries";
import { type Db, rollback } from "../_db";
import { fromRow, RULE_COLUMNS, type RuleRow, TIMER_COLUMNS, type TimerRow } from "../_rows";
import { ms, Params } from "../_sql";
import { outboxCtes, serialiseEvents } from "./outbox";

const TIMER_OF_RULE = TIMER_COLUMNS.split(", ")
  .map((c) => `t.${c} AS tm_${c}`)
  .join(", ");

type WithTimer = { [K in keyof TimerRow as `tm_${K & string}`]: TimerRow[K] | null };

/** The rule's timer from `tm_`-prefixed columns (the rule has its own `timer_id`), null when gone. */
function timerOf(row: WithTimer) {
  if (row.tm_id === null) return null;
  const timer: Record<string, unknown> = {};
  for (const column of TIMER_COLUMNS.split(", ")) {
    timer[column] = row[`tm_${column}` as keyof WithTimer];
  }
  return fromRow.timer(timer as unknown as TimerRow);
}

/**
 * The schedule methods. The store knows nothing about timer math: the worker computes instants
 * and hands back events plus the new markers; the store only guarantees that each advance
 * happens once (compare-and-set) and commits with its deliveries.
 */
export function createWebhookScheduleQueries(db: Db): WebhookScheduleQueries {
  return {
    async listDueTimeRules({ now, limit }) {
      if (!(limit > 0)) return [];
      // The rules and their live timers in one statement (walks webhook_rules_due).
      const { rows } = await db.query<
        RuleRow & WithTimer & { fired_through: string; next_fire_at: string }
      >(
        `SELECT ${RULE_COLUMNS.split(", ")
          .map((c) => `r.${c}`)
          .join(", ")}, r.fired_through, r.next_fire_at, ${TIMER_OF_RULE}
         FROM webhook_rules r LEFT JOIN timers t
           ON t.id = r.timer_id AND t.account_id = r.account_id AND t.environment = r.environment
             AND t.deleted_at IS NULL
         WHERE r.next_fire_at IS NOT NULL AND r.next_fire_at <= $1
         ORDER BY r.next_fire_at, r.id LIMIT $2`,
        [now, limit],
      );
      return rows.map(
        (row): DueTimeRule => ({
          rule: fromRow.rule(row),
          timer: timerOf(row),
          fired_through: ms(row.fired_through),
          next_fire_at: ms(row.next_fire_at),
        }),
      );
    },
    /**
     * A short transaction: share-lock the timer row (a change, which updates it, waits for us
     * or we for it), then lock the rule row, in that order everywhere, so the revision and
     * `fired_through` checks hold until the commit. The payloads are built between the reads
     * and the one write statement.
     */
    advanceTimeRule(input) {
      return db.transaction(async (query) => {
        await query(
          `SELECT 1 FROM timers t JOIN webhook_rules r
             ON t.id = r.timer_id AND t.account_id = r.account_id AND t.environment = r.environment
           WHERE r.id = $1 AND r.account_id = $2 AND r.environment = $3
           FOR SHARE OF t`,
          [input.rule_id, input.account_id, input.environment],
        );
        const { rows } = await query<WithTimer & { fired_through: string; destination_id: string }>(
          `SELECT r.fired_through, r.destination_id, ${TIMER_OF_RULE}
           FROM webhook_rules r LEFT JOIN timers t
             ON t.id = r.timer_id AND t.account_id = r.account_id AND t.environment = r.environment
               AND t.deleted_at IS NULL
           WHERE r.id = $1 AND r.account_id = $2 AND r.environment = $3
           FOR UPDATE OF r`,
          [input.rule_id, input.account_id, input.environment],
        );
        const row = rows[0];
        // Another worker advanced it first (or the rule is gone): this computation is stale.
        if (!row || ms(row.fired_through) !== input.expected_fired_through) return rollback(false);
        const timer = timerOf(row);
        // The timer changed since the events were computed: they may be wrong; the change has
        // already asked for a recomputation (next_fire_at 0).
        if ((timer?.revision ?? null) !== input.timer_revision) return rollback(false);
        const p = new Params();
        const ctes: string[] = [];
        if (timer && input.events.length > 0) {
          const events = serialiseEvents(timer, input.events);
          ctes.push(
            ...outboxCtes(
              p,
              timer,
              events,
              { kind: "rule", rule_id: input.rule_id, destination_id: row.destination_id },
              input.now,
            ),
          );
        }
        ctes.push(`advanced AS (
          UPDATE webhook_rules SET fired_through = ${p.big(input.fired_through)},
            next_fire_at = ${p.big(input.next_fire_at)}
          WHERE id = ${p.text(input.rule_id)}
        )`);
        await query(`WITH ${ctes.join(",\n")} SELECT 1`, p.values);
        return true;
      });
    },
  };
}
