import type {
  ClaimedDelivery,
  RecordAttemptInput,
  WebhookAttempt,
  WebhookWorkerStore,
} from "@tminus/store";
import type { HostResolver } from "./resolve";
import { retryDelay } from "./retry";
import { type SendResult, sendWebhook } from "./send";
import { signatureHeaders } from "./signing";

/** What one attempt needs besides the claimed delivery. */
export interface DeliverContext {
  store: WebhookWorkerStore;
  workerId: string;
  now: () => number;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Waits before each retry, in ms. */
  retryDelaysMs: readonly number[];
  resolver?: HostResolver;
  random?: () => number;
  /** Hears each recorded attempt (metrics, logs). */
  onAttempt?: (report: WebhookAttemptReport) => void;
}

/**
 * One delivery attempt as a worker reports it to `onAttempt`: ids and the outcome, never the
 * destination's URL (it may carry a token) or the payload.
 */
export interface WebhookAttemptReport {
  delivery_id: string;
  destination_id: string;
  account_id: string;
  attempt: number;
  /** `retry`: failed, another attempt is scheduled; `failed`: given up. */
  outcome: "succeeded" | "retry" | "failed";
  /** The receiver's HTTP status, or null when none came (timeout, refused address). */
  status: number | null;
  /** Why no 2xx came, when it did not (`timeout`, `destination_disabled`...). */
  error: string | null;
  duration_ms: number;
  /** False when the lease was lost meanwhile and another worker owns the delivery. */
  recorded: boolean;
}

/**
 * Makes one attempt of a claimed delivery and records it: signs the stored body, POSTs it,
 * and decides the delivery's next state. Only a 2xx succeeds. 410 Gone fails the delivery and
 * disables the destination (the receiver said it will never accept again). Anything else is
 * retried on the schedule, then fails. A destination deleted or disabled since the event was
 * queued fails the delivery without sending (the attempt's error says why).
 */
export async function deliverOne(claimed: ClaimedDelivery, ctx: DeliverContext): Promise<boolean> {
  const started = ctx.now();
  const base = { attempt: claimed.attempt, trigger: claimed.trigger, started_at: started };
  const { destination } = claimed;
  if (destination.deleted || !destination.enabled) {
    return record(ctx, claimed, {
      attempt: {
        ...base,
        duration_ms: 0,
        response_status: null,
        response_body: null,
        error: destination.deleted ? "destination_deleted" : "destination_disabled",
      },
      outcome: "failed",
    });
  }
  // The timestamp is this attempt's (receivers reject stale ones); the id is the event's.
  const headers = signatureHeaders(
    destination.secrets,
    claimed.event.id,
    Math.floor(started / 1000),
    claimed.event.payload,
  );
  const result = await sendWebhook({
    url: destination.url,
    body: claimed.event.payload,
    headers,
    timeoutMs: ctx.timeoutMs,
    allowPrivate: ctx.allowPrivate,
    resolver: ctx.resolver,
    now: ctx.now,
  });
  const attempt: WebhookAttempt = {
    ...base,
    duration_ms: result.duration_ms,
    response_status: result.status,
    response_body: result.body,
    error: result.error,
  };
  return record(ctx, claimed, { attempt, ...nextState(claimed.attempt, result, ctx) });
}

function nextState(
  attempt: number,
  result: SendResult,
  ctx: DeliverContext,
): Pick<RecordAttemptInput, "outcome" | "next_attempt_at" | "disable_destination"> {
  const status = result.status;
  if (status !== null && status >= 200 && status < 300) return { outcome: "succeeded" };
  if (status === 410) return { outcome: "failed", disable_destination: true };
  const delay = retryDelay({
    attempt,
    delaysMs: ctx.retryDelaysMs,
    retryAfterMs: result.retry_after_ms,
    random: ctx.random,
  });
  if (delay === null) return { outcome: "failed" };
  return { outcome: "retry", next_attempt_at: ctx.now() + delay };
}

function record(
  ctx: DeliverContext,
  claimed: ClaimedDelivery,
  input: Pick<
    RecordAttemptInput,
    "attempt" | "outcome" | "next_attempt_at" | "disable_destination"
  >,
): Promise<boolean> {
  const recorded = ctx.store.recordAttempt({
    delivery_id: claimed.id,
    worker_id: ctx.workerId,
    now: ctx.now(),
    ...input,
  });
  const onAttempt = ctx.onAttempt;
  if (!onAttempt) return recorded;
  return recorded.then((ok) => {
    onAttempt({
      delivery_id: claimed.id,
      destination_id: claimed.destination.id,
      account_id: claimed.account_id,
      attempt: input.attempt.attempt,
      outcome: input.outcome,
      status: input.attempt.response_status,
      error: input.attempt.error,
      duration_ms: input.attempt.duration_ms,
      recorded: ok,
    });
    return ok;
  });
}
