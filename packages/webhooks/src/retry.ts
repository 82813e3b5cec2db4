/** Retries never wait longer than a day, whatever a receiver's Retry-After asks. */
const MAX_DELAY_MS = 86_400_000;

/**
 * When to try again after failed attempt number `attempt` (1-based), in ms from now, or null
 * when the schedule is used up and the delivery fails. A little jitter (up to +10 %) spreads
 * retries of many deliveries that failed together. A `Retry-After` (429, 503) is honoured by
 * never retrying sooner than it asks.
 */
export function retryDelay(input: {
  attempt: number;
  delaysMs: readonly number[];
  retryAfterMs?: number | null;
  random?: () => number;
}): number | null {
  const base = input.delaysMs[input.attempt - 1];
  if (base === undefined) return null;
  const jittered = Math.round(base * (1 + 0.1 * (input.random ?? Math.random)()));
  return Math.min(MAX_DELAY_MS, Math.max(jittered, input.retryAfterMs ?? 0));
}

/** A `Retry-After` header (delay-seconds or an HTTP date) in ms from `now`; null when absent or invalid. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
