import { type CreateWebhookRuleOutcome, StoreError, WEBHOOK_TIME_EVENTS } from "../../contract";
import type { WebhookRuleQueries } from "../../shared/queries";
import { type Db, rollback } from "../_db";
import { mapConstraintError } from "../_errors";
import { fromRow, RULE_COLUMNS, type RuleRow } from "../_rows";

const TIME_EVENTS: readonly string[] = WEBHOOK_TIME_EVENTS;

const SCOPE = "account_id = $1 AND environment = $2 AND timer_id = $3";

/** The rule methods; the create is a short transaction, the rest one statement each. */
export function createWebhookRuleQueries(db: Db): WebhookRuleQueries {
  return {
    async createWebhookRule({ rule, max_rules_per_timer }): Promise<CreateWebhookRuleOutcome> {
      try {
        return await db.transaction<CreateWebhookRuleOutcome>(async (query) => {
          // Lock the live timer (rules of one timer are counted under it) and share-lock the
          // live destination (so a concurrent delete, which removes its rules, is ordered
          // before or after this insert, never around it). Both re-checked after any wait.
          const { rows } = await query<{ timer: number; destination: number }>(
            `WITH t AS (
               SELECT id FROM timers
               WHERE id = $1 AND account_id = $3 AND environment = $4 AND deleted_at IS NULL
               FOR NO KEY UPDATE
             ), d AS (
               SELECT id FROM webhook_destinations
               WHERE id = $2 AND account_id = $3 AND environment = $4 AND deleted_at IS NULL
               FOR SHARE
             )
             SELECT (SELECT count(*) FROM t)::int AS timer, (SELECT count(*) FROM d)::int AS destination`,
            [rule.timer_id, rule.destination_id, rule.account_id, rule.environment],
          );
          if (rows[0]!.timer === 0) return rollback({ kind: "timer_not_found" });
          if (rows[0]!.destination === 0) {
            return rollback({ kind: "destination_not_found" });
          }
          // A time-based rule starts its schedule at its creation: instants before it never
          // fire, and next_fire_at 0 asks the scheduler to compute the first one at once.
          const timeBased = rule.events.some((e) => TIME_EVENTS.includes(e));
          const inserted = await query<{ n: number; id: string | null }>(
            `WITH n AS (
               SELECT count(*)::int AS n FROM webhook_rules
               WHERE account_id = $2::text AND environment = $3::text AND timer_id = $4::text
             ), inserted AS (
               INSERT INTO webhook_rules (${RULE_COLUMNS}, time_based, fired_through, next_fire_at)
               SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text[], $7::integer,
                 $8::bigint, $9::boolean, $8::bigint, $10::bigint
               FROM n WHERE n < $11::int
               RETURNING id
             )
             SELECT n.n, inserted.id FROM n LEFT JOIN inserted ON true`,
            [
              rule.id,
              rule.account_id,
              rule.environment,
              rule.timer_id,
              rule.destination_id,
              rule.events,
              rule.offset_seconds,
              rule.created_at,
              timeBased,
              timeBased ? 0 : null,
              max_rules_per_timer,
            ],
          );
          const { n, id } = inserted.rows[0]!;
          if (id === null) {
            throw new StoreError(
              "limit_reached",
              `the timer already has ${n} webhook rules (limit ${max_rules_per_timer})`,
            );
          }
          return { kind: "created", rule };
        });
      } catch (error) {
        throw mapConstraintError(error, `webhook rule ${rule.id}`);
      }
    },
    async listWebhookRules(query) {
      if (!(query.limit > 0)) return [];
      const scope = [query.account_id, query.environment, query.timer_id, query.limit];
      const { rows } = query.after
        ? await db.query<RuleRow>(
            `SELECT ${RULE_COLUMNS} FROM webhook_rules WHERE ${SCOPE}
               AND (created_at, id) < ($5::bigint, $6::text)
             ORDER BY created_at DESC, id DESC LIMIT $4`,
            [...scope, query.after.value, query.after.id],
          )
        : await db.query<RuleRow>(
            `SELECT ${RULE_COLUMNS} FROM webhook_rules WHERE ${SCOPE}
             ORDER BY created_at DESC, id DESC LIMIT $4`,
            scope,
          );
      return rows.map(fromRow.rule);
    },
    async deleteWebhookRule({ account_id, environment, timer_id, id }) {
      const { rowCount } = await db.query(`DELETE FROM webhook_rules WHERE ${SCOPE} AND id = $4`, [
        account_id,
        environment,
        timer_id,
        id,
      ]);
      return (rowCount ?? 0) > 0;
    },
  };
}
