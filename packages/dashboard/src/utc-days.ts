/** One UTC day in ms. */
export const DAY_MS = 86_400_000;

/**
 * The last `count` UTC days, the one holding `now` last: the start of each (Unix ms, oldest
 * first) and the end of the last, for asking the API or the store for a whole range of days.
 */
export function lastUtcDays(now: number, count: number): { starts: number[]; end: number } {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const first = today - (count - 1) * DAY_MS;
  return {
    starts: Array.from({ length: count }, (_, i) => first + i * DAY_MS),
    end: today + DAY_MS,
  };
}
