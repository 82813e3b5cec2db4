import type { NewestFirstPage, WebhookAttempt, WebhookAttemptTrigger } from "../contract";
import { type ColumnDecoder, rowMappers } from "../shared/rows";

export * from "../shared/columns";
export type * from "../shared/rows";

/** better-sqlite3's values: numbers as they are; JSON objects and lists as text, booleans 0/1. */
const decode: ColumnDecoder = {
  ms: (value) => value as number,
  json: <T>(value: unknown) => JSON.parse(value as string) as T,
  list: <T extends string>(value: unknown) => JSON.parse(value as string) as T[],
  bool: (value) => value === 1,
};

/** Rows of this adapter to records. */
export const fromRow = rowMappers(decode);

/** Columns of `webhook_attempts` as read into `AttemptRow` (PostgreSQL aggregates them as JSON). */
export const ATTEMPT_COLUMNS =
  "delivery_id, attempt, attempt_trigger, started_at, duration_ms, response_status, response_body, error";

/** A `webhook_attempts` row. */
export interface AttemptRow extends Omit<WebhookAttempt, "trigger"> {
  delivery_id: string;
  attempt_trigger: WebhookAttemptTrigger;
}

/** `webhook_attempts` row to record. */
export function toAttempt(row: AttemptRow): WebhookAttempt {
  return {
    attempt: row.attempt,
    trigger: row.attempt_trigger,
    started_at: row.started_at,
    duration_ms: row.duration_ms,
    response_status: row.response_status,
    response_body: row.response_body,
    error: row.error,
  };
}

/** A statement that lists rows from positional parameters (better-sqlite3's `all`). */
interface ListStatement {
  all(...params: unknown[]): unknown[];
}

/**
 * One newest-first keyset page: `first` takes the scope and the limit, `next` the scope, the
 * position of the previous page's last row and the limit. A limit under 1 reads nothing.
 */
export function newestFirstRows<Row>(
  first: ListStatement,
  next: ListStatement,
  scope: unknown[],
  query: NewestFirstPage,
): Row[] {
  if (!(query.limit > 0)) return [];
  return (
    query.after
      ? next.all(...scope, query.after.value, query.after.id, query.limit)
      : first.all(...scope, query.limit)
  ) as Row[];
}
