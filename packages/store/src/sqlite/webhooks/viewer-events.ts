import type {
  AdvanceViewerEndInput,
  DueViewerEnd,
  ViewerStartInput,
  ViewerStartOutcome,
} from "../../contract";
import type { ViewerEventQueries } from "../../shared/queries";
import { viewerEventValues } from "../../shared/values";
import type { GroupWrite } from "../_group-commit";
import { fromRow, TIMER_COLUMNS, type TimerRow } from "../_rows";
import type { SqliteDatabase } from "../database";
import type { Outbox } from "./outbox";

const DAY_MS = 86_400_000;

/** Prepares the viewer-event statements. Events go through the outbox, per rule. */
export function createViewerEventQueries(
  db: SqliteDatabase,
  write: GroupWrite,
  outbox: Outbox,
): ViewerEventQueries {
  const timerById = db.prepare(
    `SELECT ${TIMER_COLUMNS} FROM timers WHERE id = ? AND deleted_at IS NULL`,
  );
  // The timer's rules that want an event type (the oldest first, as deliveries name them).
  const rulesFor = db.prepare(
    `SELECT r.id, r.destination_id, e.value AS type FROM webhook_rules r, json_each(r.events) e
     WHERE r.account_id = ? AND r.environment = ? AND r.timer_id = ?
       AND e.value IN ('viewer.started', 'viewer.ended')
     ORDER BY r.created_at, r.id`,
  );
  // The read-only first answer of a start: whether the timer is there and has a viewer rule,
  // without reading (and parsing) the whole timer row, as every new recipient's view asks it.
  const viewerRuleOf = db.prepare(
    `SELECT EXISTS (SELECT 1 FROM webhook_rules r, json_each(r.events) e
       WHERE r.account_id = t.account_id AND r.environment = t.environment AND r.timer_id = t.id
         AND e.value IN ('viewer.started', 'viewer.ended')) AS has_rules
     FROM timers t WHERE t.id = ? AND t.deleted_at IS NULL`,
  );
  const known = db.prepare("SELECT 1 FROM viewer_events WHERE timer_id = ? AND viewer = ?");
  const dayCount = db.prepare("SELECT count FROM viewer_event_days WHERE timer_id = ? AND day = ?");
  const bumpDay = db.prepare(
    `INSERT INTO viewer_event_days (timer_id, day, count) VALUES (?, ?, 1)
     ON CONFLICT (timer_id, day) DO UPDATE SET count = count + 1`,
  );
  const insert = db.prepare(
    `INSERT INTO viewer_events (timer_id, viewer, account_id, environment, recipient, context,
       started_at, end_check_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const due = db.prepare(
    `SELECT timer_id, viewer, recipient, context, started_at, end_check_at FROM viewer_events
     WHERE end_check_at IS NOT NULL AND end_check_at <= ?
     ORDER BY end_check_at, timer_id, viewer LIMIT ?`,
  );
  const checkAt = db.prepare(
    "SELECT end_check_at FROM viewer_events WHERE timer_id = ? AND viewer = ?",
  );
  const moveCheck = db.prepare(
    "UPDATE viewer_events SET end_check_at = ? WHERE timer_id = ? AND viewer = ?",
  );

  const readTimer = (id: string) => {
    const row = timerById.get(id) as TimerRow | undefined;
    return row ? fromRow.timer(row) : null;
  };
  type RuleHit = { id: string; destination_id: string; type: string };
  const rulesOf = (t: { account_id: string; environment: string; id: string }) =>
    rulesFor.all(t.account_id, t.environment, t.id) as RuleHit[];

  const startTx = (input: ViewerStartInput): ViewerStartOutcome => {
    const timer = readTimer(input.timer_id);
    if (!timer) return "not_found";
    const rules = rulesOf(timer);
    if (rules.length === 0) return "no_rules";
    if (known.get(timer.id, input.viewer)) return "duplicate";
    const day = input.now - (input.now % DAY_MS);
    const row = dayCount.get(timer.id, day) as { count: number } | undefined;
    if ((row?.count ?? 0) >= input.max_per_timer_day) return "capped";
    bumpDay.run(timer.id, day);
    const wantsEnd = rules.some((r) => r.type === "viewer.ended");
    insert.run(...viewerEventValues(timer, input, wantsEnd));
    const starters = rules.filter((r) => r.type === "viewer.started");
    outbox.enqueueForRules(timer, starters, [input.started], input.now);
    return "recorded";
  };

  const advanceTx = (input: AdvanceViewerEndInput): boolean => {
    const row = checkAt.get(input.timer_id, input.viewer) as
      | { end_check_at: number | null }
      | undefined;
    if (!row || row.end_check_at !== input.expected_check_at) return false;
    const timer = readTimer(input.timer_id);
    if ((timer?.revision ?? null) !== input.timer_revision) return false;
    if (timer && input.ended) {
      const enders = rulesOf(timer).filter((r) => r.type === "viewer.ended");
      outbox.enqueueForRules(timer, enders, [input.ended], input.now);
    }
    moveCheck.run(input.next_check_at, input.timer_id, input.viewer);
    return true;
  };

  return {
    async recordViewerStart(input) {
      // Most timers have no viewer rules: answer those from a read, without the write lock.
      const found = viewerRuleOf.get(input.timer_id) as { has_rules: number } | undefined;
      if (!found) return "not_found";
      if (!found.has_rules) return "no_rules";
      if (known.get(input.timer_id, input.viewer)) return "duplicate";
      return write(() => startTx(input));
    },
    async listDueViewerEnds({ now, limit }) {
      if (!(limit > 0)) return [];
      const rows = due.all(now, limit) as {
        timer_id: string;
        viewer: string;
        recipient: string | null;
        context: string;
        started_at: number;
        end_check_at: number;
      }[];
      return rows.map(
        (row): DueViewerEnd => ({
          ...row,
          context: JSON.parse(row.context) as Record<string, unknown>,
          timer: readTimer(row.timer_id),
        }),
      );
    },
    async advanceViewerEnd(input) {
      return write(() => advanceTx(input));
    },
  };
}
