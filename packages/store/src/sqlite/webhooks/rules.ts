import {
  type CreateWebhookRuleOutcome,
  StoreError,
  WEBHOOK_TIME_EVENTS,
  type WebhookRule,
} from "../../contract";
import type { WebhookRuleQueries } from "../../shared/queries";
import { mapConstraintError } from "../_errors";
import type { GroupWrite } from "../_group-commit";
import { fromRow, newestFirstRows, RULE_COLUMNS, type RuleRow } from "../_rows";
import type { SqliteDatabase } from "../database";

const TIME_EVENTS: readonly string[] = WEBHOOK_TIME_EVENTS;

/** Prepares the rule statements and returns their methods. */
export function createWebhookRuleQueries(
  db: SqliteDatabase,
  write: GroupWrite,
): WebhookRuleQueries {
  const liveTimer = db.prepare(
    "SELECT 1 FROM timers WHERE id = ? AND account_id = ? AND environment = ? AND deleted_at IS NULL",
  );
  const liveDestination = db.prepare(
    `SELECT 1 FROM webhook_destinations
     WHERE id = ? AND account_id = ? AND environment = ? AND deleted_at IS NULL`,
  );
  const where = "account_id = ? AND environment = ? AND timer_id = ?";
  const countRules = db.prepare(`SELECT count(*) AS n FROM webhook_rules WHERE ${where}`);
  // A time-based rule starts its schedule at its creation: instants before it never fire, and
  // next_fire_at 0 asks the scheduler to compute the first one at once.
  const insert = db.prepare(
    `INSERT INTO webhook_rules (${RULE_COLUMNS}, time_based, fired_through, next_fire_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const first = db.prepare(
    `SELECT ${RULE_COLUMNS} FROM webhook_rules WHERE ${where}
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const next = db.prepare(
    `SELECT ${RULE_COLUMNS} FROM webhook_rules WHERE ${where} AND (created_at, id) < (?, ?)
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const remove = db.prepare(`DELETE FROM webhook_rules WHERE id = ? AND ${where}`);

  const createTx = (input: { rule: WebhookRule; max_rules_per_timer: number }) => {
    const { rule } = input;
    const scope = [rule.account_id, rule.environment] as const;
    if (!liveTimer.get(rule.timer_id, ...scope)) return { kind: "timer_not_found" } as const;
    if (!liveDestination.get(rule.destination_id, ...scope)) {
      return { kind: "destination_not_found" } as const;
    }
    const { n } = countRules.get(...scope, rule.timer_id) as { n: number };
    if (n >= input.max_rules_per_timer) {
      throw new StoreError(
        "limit_reached",
        `the timer already has ${n} webhook rules (limit ${input.max_rules_per_timer})`,
      );
    }
    const timeBased = rule.events.some((e) => TIME_EVENTS.includes(e));
    insert.run(
      rule.id,
      ...scope,
      rule.timer_id,
      rule.destination_id,
      JSON.stringify(rule.events),
      rule.offset_seconds,
      rule.created_at,
      timeBased ? 1 : 0,
      rule.created_at,
      timeBased ? 0 : null,
    );
    return { kind: "created", rule } as const;
  };

  return {
    async createWebhookRule(input): Promise<CreateWebhookRuleOutcome> {
      try {
        return await write(() => createTx(input));
      } catch (error) {
        throw mapConstraintError(error, `webhook rule ${input.rule.id}`);
      }
    },
    async listWebhookRules(query) {
      const scope = [query.account_id, query.environment, query.timer_id];
      return newestFirstRows<RuleRow>(first, next, scope, query).map(fromRow.rule);
    },
    async deleteWebhookRule({ account_id, environment, timer_id, id }) {
      return write(() => remove.run(id, account_id, environment, timer_id).changes > 0);
    },
  };
}
