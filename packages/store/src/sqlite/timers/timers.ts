import type {
  ChangeTimerInput,
  ChangeTimerOutcome,
  CreateTimerInput,
  CreateTimerOutcome,
  TimerRecord,
  TimerSort,
} from "../../contract";
import type { TimerQueries } from "../../shared/queries";
import { applyTimerChange, asStored } from "../../shared/timer-change";
import { mapConstraintError } from "../_errors";
import type { Generations } from "../_generations";
import type { GroupWrite } from "../_group-commit";
import { fromRow, type ResponseRow, TIMER_COLUMNS, type TimerRow } from "../_rows";
import { statementCache } from "../_statement-cache";
import { usageRead } from "../_usage";
import type { SqliteDatabase } from "../database";
import { createOutbox } from "../webhooks/outbox";
import { activityInsert } from "./activity";

/** Sort fields mapped to their columns: never interpolate a caller's string into SQL. */
const SORT_COLUMNS: Record<TimerSort["field"], string> = {
  created_at: "created_at",
  updated_at: "updated_at",
};

/** Prepares the timer statements and returns the timer methods. */
export function createTimerQueries(
  db: SqliteDatabase,
  write: GroupWrite,
  generations: Generations,
): TimerQueries {
  const findIdempotency = db.prepare(
    `SELECT fingerprint, expires_at, response_status, response_headers, response_body
     FROM idempotency_keys WHERE account_id = ? AND environment = ? AND key = ?`,
  );
  // An expired record is overwritten in place: it is treated as absent (conventions.md).
  const saveIdempotency = db.prepare(
    `INSERT INTO idempotency_keys (account_id, environment, key, fingerprint, response_status,
       response_headers, response_body, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id, environment, key) DO UPDATE SET
       fingerprint = excluded.fingerprint, response_status = excluded.response_status,
       response_headers = excluded.response_headers, response_body = excluded.response_body,
       created_at = excluded.created_at, expires_at = excluded.expires_at`,
  );
  const readUsage = usageRead(db);
  // Reserves one unit of the allowance only while some is left: one statement, and a row back
  // means it was reserved (the common case needs no separate read).
  const reserveUnit = db.prepare(
    `INSERT INTO usage_counters (account_id, environment, cycle_id, metric, total)
     VALUES (?, ?, ?, 'new_timers', 1)
     ON CONFLICT (account_id, environment, cycle_id, metric) DO UPDATE SET total = total + 1
       WHERE total < ?
     RETURNING total`,
  );
  const insertTimer = db.prepare(
    `INSERT INTO timers (${TIMER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)`,
  );
  // Hot path: a primary-key probe; account and environment keep tenants and Sandbox apart.
  const byId = db.prepare(
    `SELECT ${TIMER_COLUMNS} FROM timers
     WHERE id = ? AND account_id = ? AND environment = ? AND deleted_at IS NULL`,
  );
  const updateRow = db.prepare(
    `UPDATE timers SET name = ?, status = ?, published_at = ?, data = ?, revision = ?,
       updated_at = ?, deleted_at = ?
     WHERE id = ? AND account_id = ? AND environment = ?`,
  );
  const recordActivity = activityInsert(db);
  const outbox = createOutbox(db);
  const listStatement = statementCache(db);

  // Runs inside a group-commit transaction (see _group-commit.ts).
  const createTx = (input: CreateTimerInput): CreateTimerOutcome => {
    const { timer, allowance, idempotency, now } = input;
    const scope = [timer.account_id, timer.environment] as const;
    // (a) A live record answers first, even when the allowance is spent since.
    if (idempotency) {
      const row = findIdempotency.get(...scope, idempotency.key) as
        | (ResponseRow & { fingerprint: string; expires_at: number })
        | undefined;
      if (row && row.expires_at > now) {
        return row.fingerprint === idempotency.fingerprint
          ? { kind: "replayed", response: fromRow.storedResponse(row) }
          : { kind: "idempotency_conflict" };
      }
    }
    // (b) Reserve a unit, or refuse a spent allowance writing nothing, so a retry with the
    // same key executes later. (A limit of 0 refuses even the counter's first row.)
    const reserved =
      allowance.limit > 0
        ? (reserveUnit.get(...scope, allowance.cycle_id, allowance.limit) as
            | { total: number }
            | undefined)
        : undefined;
    if (!reserved) {
      const usage = readUsage.get(...scope, allowance.cycle_id, "new_timers") as
        | { total: number }
        | undefined;
      return { kind: "quota_exhausted", used: usage?.total ?? 0, limit: allowance.limit };
    }
    // (c) Insert and record: all or nothing with the reservation.
    const data = JSON.stringify(timer.data);
    insertTimer.run(
      timer.id,
      ...scope,
      timer.name,
      timer.type,
      timer.status,
      timer.created_at,
      timer.updated_at,
      timer.published_at,
      data,
    );
    // Parse the stored JSON back so `respond` sees exactly what getTimer will return.
    const created: TimerRecord = { ...timer, revision: 1, data: JSON.parse(data) };
    const response = input.respond(created);
    if (idempotency) {
      saveIdempotency.run(
        ...scope,
        idempotency.key,
        idempotency.fingerprint,
        response.status,
        JSON.stringify(response.headers),
        response.body,
        now,
        idempotency.expires_at,
      );
    }
    if (input.activity) recordActivity(input.activity);
    // The outbox commits with the timer: a create that rolls back leaves no event behind.
    if (input.events && input.events.length > 0) outbox.enqueue(created, input.events, now);
    return { kind: "created", timer: created, response };
  };

  // Runs inside a group-commit transaction: the revision check, the change and its activity
  // entry commit together or not at all, so of concurrent changes with one revision exactly
  // one wins.
  const changeTx = (input: ChangeTimerInput): ChangeTimerOutcome => {
    const row = byId.get(input.id, input.account_id, input.environment) as TimerRow | undefined;
    if (!row) return { kind: "not_found" };
    const current = fromRow.timer(row);
    if (current.revision !== input.expected_revision) return { kind: "revision_conflict", current };
    const change = input.change(current);
    const stored = change.data === undefined ? undefined : asStored(change.data);
    const data = stored ? stored.text : (row.data as string);
    const { timer, activity } = applyTimerChange(input, current, change, stored?.value);
    updateRow.run(
      timer.name,
      timer.status,
      timer.published_at,
      data,
      timer.revision,
      timer.updated_at,
      change.delete ? input.now : null,
      timer.id,
      input.account_id,
      input.environment,
    );
    recordActivity(activity);
    generations.bump("timers");
    // Any change may move the timer's end: its time-based rules recompute their schedule.
    outbox.timerChanged(timer);
    if (change.events && change.events.length > 0) outbox.enqueue(timer, change.events, input.now);
    return { kind: "changed", timer, activity };
  };

  return {
    async createTimer(input) {
      try {
        return await write(() => createTx(input));
      } catch (error) {
        throw mapConstraintError(error, `timer ${input.timer.id}`);
      }
    },
    async getTimer(account_id, environment, id) {
      const row = byId.get(id, account_id, environment) as TimerRow | undefined;
      return row ? fromRow.timer(row) : null;
    },
    async listTimers(query) {
      const statuses = [...new Set(query.statuses)];
      // SQLite reads a negative LIMIT as "no limit"; an empty IN list matches nothing.
      if (statuses.length === 0 || !(query.limit > 0)) return [];
      const first = statuses[0]!;
      const paged = query.after !== undefined;
      const { field, direction } = query.sort;
      const statement = listStatement(`${field}:${direction}:${paged}`, () =>
        listSql(query.sort, paged),
      );
      const rows = statement.all({
        account_id: query.account_id,
        environment: query.environment,
        // Three slots cover every status; unused ones repeat the first (IN ignores repeats).
        s0: first,
        s1: statuses[1] ?? first,
        s2: statuses[2] ?? first,
        type: query.type ?? null,
        name: query.name_contains ? asciiLower(query.name_contains) : null,
        ...(query.after ? { after_value: query.after.value, after_id: query.after.id } : {}),
        limit: query.limit,
      }) as TimerRow[];
      return rows.map(fromRow.timer);
    },
    async changeTimer(input) {
      return write(() => changeTx(input));
    },
  };
}

/**
 * One keyset page: strict row-value comparison on `(sort column, id)` in the sort direction,
 * so ties on the sort value are broken by id and rows inserted or deleted elsewhere never
 * move the position. Walks `timers_by_created` / `timers_by_updated` without a sort step.
 */
function listSql(sort: TimerSort, paged: boolean): string {
  const column = SORT_COLUMNS[sort.field];
  if (!column) throw new Error(`unknown timer sort field: ${String(sort.field)}`);
  const descending = sort.direction === "desc";
  const order = descending ? "DESC" : "ASC";
  const after = paged
    ? `AND (${column}, id) ${descending ? "<" : ">"} (@after_value, @after_id)`
    : "";
  return `SELECT ${TIMER_COLUMNS} FROM timers
    WHERE account_id = @account_id AND environment = @environment AND deleted_at IS NULL
      AND status IN (@s0, @s1, @s2)
      AND (@type IS NULL OR type = @type)
      AND (@name IS NULL OR instr(lower(name), @name) > 0)
      ${after}
    ORDER BY ${column} ${order}, id ${order}
    LIMIT @limit`;
}

/** SQLite's lower() folds ASCII only; the needle is folded the same way, on both adapters. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
