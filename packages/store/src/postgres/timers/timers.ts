import type {
  ChangeTimerInput,
  ChangeTimerOutcome,
  CreateTimerInput,
  CreateTimerOutcome,
  StoredResponse,
  TimerRecord,
  TimerSort,
} from "../../contract";
import type { TimerQueries } from "../../shared/queries";
import { applyTimerChange, asStored } from "../../shared/timer-change";
import { type Db, type Query, rollback } from "../_db";
import { mapConstraintError } from "../_errors";
import { bumpCte } from "../_generations";
import { fromRow, type ResponseRow, TIMER_COLUMNS, type TimerRow } from "../_rows";
import { ms, Params } from "../_sql";
import { named } from "../_statements";
import {
  hasDestinationsSql,
  outboxCtes,
  type SerialisedEvent,
  scheduleResetCte,
  serialiseEvents,
} from "../webhooks/outbox";
import { activityCte } from "./activity";

/** Sort fields mapped to their columns: never interpolate a caller's string into SQL. */
const SORT_COLUMNS: Record<TimerSort["field"], string> = {
  created_at: "created_at",
  updated_at: "updated_at",
};

/** A serialization failure: `Db.transaction` runs the transaction again. */
function retry(why: string): Error {
  return Object.assign(new Error(`retry: ${why}`), { code: "40001" });
}

/** translate()'s arguments that fold ASCII letters to lower case. */
const ASCII_FOLD = "'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'";

/** A live timer by id within its account and environment: `getTimer`, a change's re-read. */
const BY_ID = named(`SELECT ${TIMER_COLUMNS} FROM timers
  WHERE id = $1 AND account_id = $2 AND environment = $3 AND deleted_at IS NULL`);

/** `BY_ID` and whether the account has destinations: the read before a change. */
const FOR_CHANGE =
  named(`SELECT ${TIMER_COLUMNS}, ${hasDestinationsSql("$2", "$3")} AS has_destinations
  FROM timers WHERE id = $1 AND account_id = $2 AND environment = $3 AND deleted_at IS NULL`);

/** A refused create's `used`: the allowance counter. */
const USED = named(`SELECT total FROM usage_counters
  WHERE account_id = $1 AND environment = $2 AND cycle_id = $3 AND metric = 'new_timers'`);

/** The stored idempotency record a claim found live. */
const IDEMPOTENCY_RECORD =
  named(`SELECT fingerprint, response_status, response_headers, response_body
  FROM idempotency_keys WHERE account_id = $1 AND environment = $2 AND key = $3`);

/** The timer methods; see each for its statements and round trips. */
export function createTimerQueries(db: Db): TimerQueries {
  /**
   * The statement that creates: reserve one unit of the allowance (a row-level upsert that
   * only increments below the limit), then, only if that produced a row, insert the timer, its
   * activity entry, the idempotency record's response and the outbox rows. A spent allowance
   * writes nothing. The counter row is the one lock creates of an account share (other
   * accounts never wait), held from this statement to the commit: so it comes last.
   */
  const createStatement = (
    input: CreateTimerInput,
    created: TimerRecord,
    dataText: string,
    response: StoredResponse | null,
    events: readonly SerialisedEvent[],
  ) => {
    const { timer, allowance, idempotency } = input;
    const p = new Params();
    const account = p.text(timer.account_id);
    const environment = p.text(timer.environment);
    const limit = p.big(allowance.limit);
    const ctes = [
      `reserve AS (
        INSERT INTO usage_counters AS u (account_id, environment, cycle_id, metric, total)
        SELECT ${account}, ${environment}, ${p.text(allowance.cycle_id)}, 'new_timers', 1
        WHERE ${limit} > 0
        ON CONFLICT (account_id, environment, cycle_id, metric)
          DO UPDATE SET total = u.total + 1 WHERE u.total < ${limit}
        RETURNING total
      )`,
      `t AS (
        INSERT INTO timers (${TIMER_COLUMNS})
        SELECT ${p.text(timer.id)}, ${account}, ${environment}, ${p.text(timer.name)},
          ${p.text(timer.type)}, ${p.text(timer.status)}, 1, ${p.big(timer.created_at)},
          ${p.big(timer.updated_at)}, ${p.big(timer.published_at)}, ${p.json(dataText)}
        FROM reserve
        RETURNING id
      )`,
    ];
    if (input.activity) ctes.push(activityCte(p, input.activity, "t"));
    if (idempotency && response) {
      ctes.push(`idem AS (
        UPDATE idempotency_keys SET response_status = ${p.int(response.status)},
          response_headers = ${p.jsonb(JSON.stringify(response.headers))},
          response_body = ${p.text(response.body)}
        WHERE account_id = ${account} AND environment = ${environment}
          AND key = ${p.text(idempotency.key)} AND EXISTS (SELECT 1 FROM t)
      )`);
    }
    if (events.length > 0) {
      ctes.push(...outboxCtes(p, created, events, { kind: "subscribers" }, input.now, "t"));
    }
    // Named: the text is one of at most 8 (activity, idempotency record, outbox: each present
    // or not); the outbox takes its events as arrays, so their number does not change it.
    const sql = named(`WITH ${ctes.join(",\n")} SELECT count(*)::int AS created FROM t`);
    return { sql, values: p.values };
  };

  /** `used` for a refused create: read after the upsert, which locked the counter row. */
  const usedOf = async (query: Query, input: CreateTimerInput) => {
    const { rows } = await query<{ total: string }>(USED, [
      input.timer.account_id,
      input.timer.environment,
      input.allowance.cycle_id,
    ]);
    return rows[0] ? ms(rows[0].total) : 0;
  };

  const exhausted = async (query: Query, input: CreateTimerInput): Promise<CreateTimerOutcome> => ({
    kind: "quota_exhausted",
    used: await usedOf(query, input),
    limit: input.allowance.limit,
  });

  /**
   * With an idempotency key: BEGIN; claim the key (insert a placeholder row, or take over an
   * expired one) and learn whether anyone could want the events; `respond` and the payloads
   * in JS; the create statement; COMMIT. Four round trips.
   *
   * The claim serialises one key: a concurrent create with the same key blocks on the primary
   * key until this transaction ends, then finds the committed record (replay) or, after a
   * rollback (a spent allowance), claims the key itself. `respond` never runs for a replay.
   * Without a key but with a payload that throws, this path (minus the claim) decides, like
   * SQLite, whether the payload was needed at all.
   */
  const createInTransaction = (input: CreateTimerInput) => {
    const stored = asStored(input.timer.data);
    const created: TimerRecord = { ...input.timer, revision: 1, data: stored.value };
    const { timer, idempotency, now } = input;
    return db.transaction(async (query) => {
      const p = new Params();
      const account = p.text(timer.account_id);
      const environment = p.text(timer.environment);
      const claim = idempotency
        ? `WITH claim AS (
             INSERT INTO idempotency_keys AS k (account_id, environment, key, fingerprint,
               response_status, response_headers, response_body, created_at, expires_at)
             VALUES (${account}, ${environment}, ${p.text(idempotency.key)},
               ${p.text(idempotency.fingerprint)}, 0, '{}', '', ${p.big(now)},
               ${p.big(idempotency.expires_at)})
             ON CONFLICT (account_id, environment, key) DO UPDATE SET
               fingerprint = excluded.fingerprint, response_status = 0, response_headers = '{}',
               response_body = '', created_at = excluded.created_at, expires_at = excluded.expires_at
             WHERE k.expires_at <= excluded.created_at
             RETURNING 1
           )`
        : "";
      // Named: one text with an idempotency key, one without.
      const first = await query<{ claimed: number; has_destinations: boolean }>(
        named(`${claim} SELECT ${idempotency ? "(SELECT count(*) FROM claim)::int" : "1"} AS claimed,
           ${hasDestinationsSql(account, environment)} AS has_destinations`),
        p.values,
      );
      const { claimed, has_destinations } = first.rows[0]!;
      if (idempotency && claimed === 0) {
        // A live record exists (possibly committed while the claim waited for it): a new
        // statement's snapshot sees it.
        const { rows } = await query<ResponseRow & { fingerprint: string }>(IDEMPOTENCY_RECORD, [
          timer.account_id,
          timer.environment,
          idempotency.key,
        ]);
        const record = rows[0];
        // Purged between the claim and the read: claim again.
        if (!record) throw retry("idempotency record vanished");
        return rollback<CreateTimerOutcome>(
          record.fingerprint === idempotency.fingerprint
            ? { kind: "replayed", response: fromRow.storedResponse(record) }
            : { kind: "idempotency_conflict" },
        );
      }
      const response = input.respond(created);
      const events =
        has_destinations && input.events?.length ? serialiseEvents(created, input.events) : [];
      const statement = createStatement(input, created, stored.text, response, events);
      const { rows } = await query<{ created: number }>(statement.sql, statement.values);
      if (rows[0]!.created === 0) return rollback(await exhausted(query, input));
      return { kind: "created", timer: created, response } as CreateTimerOutcome;
    });
  };

  /**
   * Without an idempotency key the create statement is the whole create, atomic on its own:
   * one round trip, no BEGIN/COMMIT. `respond` and the payloads run first (they are pure; for
   * a refused create their result is dropped), so a throwing `respond` writes nothing. A
   * payload that throws sends the create down the transactional path, which calls payloads
   * only when a destination exists, as SQLite does.
   */
  const createInOneStatement = async (input: CreateTimerInput): Promise<CreateTimerOutcome> => {
    const stored = asStored(input.timer.data);
    const created: TimerRecord = { ...input.timer, revision: 1, data: stored.value };
    const response: StoredResponse = input.respond(created);
    let events: SerialisedEvent[];
    try {
      events = serialiseEvents(created, input.events ?? []);
    } catch {
      return createInTransaction(input);
    }
    const statement = createStatement(input, created, stored.text, null, events);
    const { rows } = await db.query<{ created: number }>(statement.sql, statement.values);
    if (rows[0]!.created === 0) return exhausted(db.query, input);
    return { kind: "created", timer: created, response };
  };

  /**
   * Optimistic, without an explicit transaction: read the row (and whether the account has
   * destinations), run `change` in JS, then ONE statement that updates the row only if it is
   * still at the expected revision, and in the same statement writes the activity entry,
   * resets the time-based rules and fills the outbox, all conditional on that update. Two
   * round trips; of concurrent changes with one revision, the row lock lets exactly one
   * update match and the others re-read and answer `revision_conflict`.
   */
  const changeTimer = async (input: ChangeTimerInput): Promise<ChangeTimerOutcome> => {
    const { rows } = await db.query<TimerRow & { has_destinations: boolean }>(FOR_CHANGE, [
      input.id,
      input.account_id,
      input.environment,
    ]);
    const row = rows[0];
    if (!row) return { kind: "not_found" };
    const { has_destinations, ...timerRow } = row;
    const current = fromRow.timer(timerRow);
    if (current.revision !== input.expected_revision) return { kind: "revision_conflict", current };
    const change = input.change(current);
    const data = change.data === undefined ? undefined : asStored(change.data);
    const { timer, activity } = applyTimerChange(input, current, change, data?.value);
    const events: SerialisedEvent[] =
      has_destinations && change.events?.length ? serialiseEvents(timer, change.events) : [];

    const p = new Params();
    const ctes = [
      `u AS (
        UPDATE timers SET name = ${p.text(timer.name)}, status = ${p.text(timer.status)},
          published_at = ${p.big(timer.published_at)},
          ${data ? `data = ${p.json(data.text)},` : ""}
          revision = ${p.int(timer.revision)}, updated_at = ${p.big(timer.updated_at)},
          deleted_at = ${p.big(change.delete ? input.now : null)}
        WHERE id = ${p.text(timer.id)} AND account_id = ${p.text(input.account_id)}
          AND environment = ${p.text(input.environment)} AND deleted_at IS NULL
          AND revision = ${p.int(input.expected_revision)}
        RETURNING id
      )`,
      activityCte(p, activity, "u"),
      // Any change may move the timer's end: its time-based rules recompute their schedule.
      scheduleResetCte(p, timer, "u"),
      `gen AS (${bumpCte("timers", "u", p.text(input.account_id))})`,
    ];
    if (events.length > 0) {
      ctes.push(...outboxCtes(p, timer, events, { kind: "subscribers" }, input.now, "u"));
    }
    // Named: one text of 4 (new data or not, outbox rows or not).
    const written = await db.query<{ changed: number }>(
      named(`WITH ${ctes.join(",\n")} SELECT count(*)::int AS changed FROM u`),
      p.values,
    );
    if (written.rows[0]!.changed === 1) return { kind: "changed", timer, activity };
    // Another change won the race (or deleted the timer) since the read.
    const now = await db.query<TimerRow>(BY_ID, [input.id, input.account_id, input.environment]);
    return now.rows[0]
      ? { kind: "revision_conflict", current: fromRow.timer(now.rows[0]) }
      : { kind: "not_found" };
  };

  return {
    async createTimer(input) {
      try {
        return input.idempotency
          ? await createInTransaction(input)
          : await createInOneStatement(input);
      } catch (error) {
        throw mapConstraintError(error, `timer ${input.timer.id}`);
      }
    },
    // Hot path: a primary-key probe; account and environment keep tenants and Sandbox apart.
    async getTimer(account_id, environment, id) {
      const { rows } = await db.query<TimerRow>(BY_ID, [id, account_id, environment]);
      return rows[0] ? fromRow.timer(rows[0]) : null;
    },
    async listTimers(query) {
      const statuses = [...new Set(query.statuses)];
      if (statuses.length === 0 || !(query.limit > 0)) return [];
      const column = SORT_COLUMNS[query.sort.field];
      if (!column) throw new Error(`unknown timer sort field: ${String(query.sort.field)}`);
      const descending = query.sort.direction === "desc";
      const order = descending ? "DESC" : "ASC";
      const p = new Params();
      // Strict row-value comparison on (sort column, id): ties broken by id, and rows inserted
      // or deleted elsewhere never move the position. Walks timers_by_created/updated.
      const sql = `SELECT ${TIMER_COLUMNS} FROM timers
        WHERE account_id = ${p.text(query.account_id)} AND environment = ${p.text(query.environment)}
          AND deleted_at IS NULL AND status = ANY (${p.texts(statuses)})
          ${query.type !== undefined ? `AND type = ${p.text(query.type)}` : ""}
          ${
            // translate folds ASCII only, as SQLite's lower() does: both adapters agree.
            query.name_contains
              ? `AND strpos(translate(name, ${ASCII_FOLD}), ${p.text(query.name_contains.replace(/[A-Z]/g, (c) => c.toLowerCase()))}) > 0`
              : ""
          }
          ${
            query.after
              ? `AND (${column}, id) ${descending ? "<" : ">"} (${p.big(query.after.value)}, ${p.text(query.after.id)})`
              : ""
          }
        ORDER BY ${column} ${order}, id ${order}
        LIMIT ${p.int(query.limit)}`;
      const { rows } = await db.query<TimerRow>(sql, p.values);
      return rows.map(fromRow.timer);
    },
    changeTimer,
  };
}
