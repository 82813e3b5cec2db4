import type {
  ApiKeyRecord,
  RecordAttemptInput,
  TimerRecord,
  ViewerStartInput,
  WebhookAttempt,
} from "../contract";
import type { KeyRow } from "./rows";

// The values of statements that both adapters write with the same columns in the same order,
// listed once (the SQL around them differs: placeholders, casts, one statement or several).

/**
 * The key that replaces a rolled one, in `KEY_COLUMNS` order less revoked_at and expires_at
 * (NULL for a new key): the rolled key's account, environment, scopes and name carry over.
 */
export function replacementKeyValues(
  next: Pick<ApiKeyRecord, "id" | "prefix" | "hash">,
  rolled: KeyRow,
  now: number,
): unknown[] {
  return [
    next.id,
    rolled.account_id,
    rolled.environment,
    next.prefix,
    next.hash,
    rolled.scopes,
    now,
    rolled.name,
  ];
}

/**
 * A tracked viewer's row of `viewer_events` (timer_id, viewer, account_id, environment,
 * recipient, context, started_at, end_check_at): an end check only when a rule wants
 * `viewer.ended`.
 */
export function viewerEventValues(
  timer: TimerRecord,
  input: ViewerStartInput,
  wantsEnd: boolean,
): unknown[] {
  return [
    timer.id,
    input.viewer,
    timer.account_id,
    timer.environment,
    input.recipient,
    JSON.stringify(input.context),
    input.started_at,
    wantsEnd ? input.end_check_at : null,
  ];
}

/**
 * How an attempt settles its delivery, in the order both adapters' compare-and-set takes them:
 * the new status, the attempt number, when it is due again (a retry only), now, the delivery
 * and the worker holding its lease.
 */
export function settlementValues(input: RecordAttemptInput): unknown[] {
  const retry = input.outcome === "retry";
  return [
    retry ? "pending" : input.outcome,
    input.attempt.attempt,
    retry ? (input.next_attempt_at ?? input.now) : null,
    input.now,
    input.delivery_id,
    input.worker_id,
  ];
}

/** An attempt's own columns of `webhook_attempts`, after its delivery and number. */
export function attemptValues(attempt: WebhookAttempt): unknown[] {
  return [
    attempt.trigger,
    attempt.started_at,
    attempt.duration_ms,
    attempt.response_status,
    attempt.response_body,
    attempt.error,
  ];
}
