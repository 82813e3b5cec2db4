import type { DueViewerEnd, TimerRecord } from "../../contract";
import type { ViewerEventQueries } from "../../shared/queries";
import { viewerEventValues } from "../../shared/values";
import { type Db, type Query, rollback } from "../_db";
import { fromRow, TIMER_COLUMNS, type TimerRow } from "../_rows";
import { ms, Params } from "../_sql";
import { outboxCtes, serialiseEvents } from "./outbox";

const DAY_MS = 86_400_000;

type RuleHit = { id: string; destination_id: string; type: string };

const TIMER_SQL = `SELECT ${TIMER_COLUMNS} FROM timers WHERE id = $1 AND deleted_at IS NULL`;
// The timer's rules that want a viewer event, oldest first (deliveries name the oldest).
const RULES_SQL = `SELECT r.id, r.destination_id, t.type
  FROM webhook_rules r, unnest(r.events) AS t (type)
  WHERE r.account_id = $1 AND r.environment = $2 AND r.timer_id = $3
    AND t.type IN ('viewer.started', 'viewer.ended')
  ORDER BY r.created_at, r.id`;

async function readTimer(query: Query, id: string, lock = ""): Promise<TimerRecord | null> {
  const { rows } = await query<TimerRow>(`${TIMER_SQL}${lock}`, [id]);
  return rows[0] ? fromRow.timer(rows[0]) : null;
}

async function rulesOf(query: Query, timer: TimerRecord): Promise<RuleHit[]> {
  const { rows } = await query<RuleHit>(RULES_SQL, [timer.account_id, timer.environment, timer.id]);
  return rows;
}

/** Writes `events` to the outbox for the rules given (nothing when none is left). */
async function enqueue(
  query: Query,
  timer: TimerRecord,
  rules: RuleHit[],
  events: Parameters<typeof serialiseEvents>[1],
  now: number,
): Promise<void> {
  if (rules.length === 0) return;
  const p = new Params();
  const ctes = outboxCtes(p, timer, serialiseEvents(timer, events), { kind: "rules", rules }, now);
  await query(`WITH ${ctes.join(",\n")} SELECT 1`, p.values);
}

/**
 * The viewer-event methods. Each start and each advance is one short transaction that
 * share-locks the timer row first (a change waits for it, or it for the change), as the
 * time-based schedule does.
 */
export function createViewerEventQueries(db: Db): ViewerEventQueries {
  return {
    async recordViewerStart(input) {
      // Most timers have no viewer rules: answer those from reads, without a transaction.
      const seen = await readTimer(db.query, input.timer_id);
      if (!seen) return "not_found";
      if ((await rulesOf(db.query, seen)).length === 0) return "no_rules";
      return db.transaction(async (query) => {
        const timer = await readTimer(query, input.timer_id, " FOR SHARE");
        if (!timer) return rollback("not_found" as const);
        const rules = await rulesOf(query, timer);
        if (rules.length === 0) return rollback("no_rules" as const);
        const wantsEnd = rules.some((r) => r.type === "viewer.ended");
        // A concurrent start of the same viewer waits on the key, then inserts nothing.
        const inserted = await query(
          `INSERT INTO viewer_events (timer_id, viewer, account_id, environment, recipient, context,
             started_at, end_check_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
          viewerEventValues(timer, input, wantsEnd),
        );
        if (inserted.rowCount === 0) return rollback("duplicate" as const);
        const day = input.now - (input.now % DAY_MS);
        const { rows } = await query<{ count: number }>(
          `INSERT INTO viewer_event_days (timer_id, day, count) VALUES ($1, $2, 1)
           ON CONFLICT (timer_id, day) DO UPDATE SET count = viewer_event_days.count + 1
           RETURNING count`,
          [timer.id, day],
        );
        if ((rows[0]?.count ?? 0) > input.max_per_timer_day) return rollback("capped" as const);
        const starters = rules.filter((r) => r.type === "viewer.started");
        await enqueue(query, timer, starters, [input.started], input.now);
        return "recorded" as const;
      });
    },
    async listDueViewerEnds({ now, limit }) {
      if (!(limit > 0)) return [];
      const { rows } = await db.query<{
        timer_id: string;
        viewer: string;
        recipient: string | null;
        context: string;
        started_at: string;
        end_check_at: string;
      }>(
        `SELECT timer_id, viewer, recipient, context, started_at, end_check_at FROM viewer_events
         WHERE end_check_at IS NOT NULL AND end_check_at <= $1
         ORDER BY end_check_at, timer_id, viewer LIMIT $2`,
        [now, limit],
      );
      const out: DueViewerEnd[] = [];
      for (const row of rows) {
        out.push({
          timer_id: row.timer_id,
          viewer: row.viewer,
          recipient: row.recipient,
          context: JSON.parse(row.context) as Record<string, unknown>,
          started_at: ms(row.started_at),
          end_check_at: ms(row.end_check_at),
          timer: await readTimer(db.query, row.timer_id),
        });
      }
      return out;
    },
    advanceViewerEnd(input) {
      return db.transaction(async (query) => {
        const timer = await readTimer(query, input.timer_id, " FOR SHARE");
        const { rows } = await query<{ end_check_at: string | null }>(
          `SELECT end_check_at FROM viewer_events WHERE timer_id = $1 AND viewer = $2 FOR UPDATE`,
          [input.timer_id, input.viewer],
        );
        const row = rows[0];
        // Another worker advanced it first: this computation is stale.
        if (!row || row.end_check_at === null || ms(row.end_check_at) !== input.expected_check_at) {
          return rollback(false);
        }
        if ((timer?.revision ?? null) !== input.timer_revision) return rollback(false);
        if (timer && input.ended) {
          const enders = (await rulesOf(query, timer)).filter((r) => r.type === "viewer.ended");
          await enqueue(query, timer, enders, [input.ended], input.now);
        }
        await query(
          "UPDATE viewer_events SET end_check_at = $1 WHERE timer_id = $2 AND viewer = $3",
          [input.next_check_at, input.timer_id, input.viewer],
        );
        return true;
      });
    },
  };
}
