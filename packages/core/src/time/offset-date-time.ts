import { daysFromCivil, daysInMonth } from "./_calendar";

// RFC 3339 `date-time` with the ISO 8601 offset spellings people actually send
// (+05:30, +0530, +05). The offset is mandatory: a wall-clock time without one
// names no instant, and the specification makes that a validation_error.
const OFFSET_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

const MAX_OFFSET_MINUTES = 18 * 60;

/**
 * Epoch milliseconds of an ISO 8601 / RFC 3339 date-time that carries `Z` or a
 * numeric offset, or `null` when the text is malformed, names an impossible date
 * or time, or has no offset. Digits beyond milliseconds are truncated.
 * @example parseOffsetDateTime("2026-11-22T11:00:00+01:00") // 1_795_341_600_000
 */
export function parseOffsetDateTime(text: string): number | null {
  // Stryker disable next-line ConditionalExpression: equivalent, a memo that parses every time (true) only loses hits.
  if (text !== lastParsed.text) lastParsed = { text, ms: parse(text) };
  return lastParsed.ms;
}

// The last text read and its instant. A stored deadline is read back on every status request
// of its timer, and the regular expression and calendar arithmetic cost about 0.4 us.
let lastParsed: { text: string | undefined; ms: number | null } = { text: undefined, ms: null };

function parse(text: string): number | null {
  const m = OFFSET_DATE_TIME.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  // Leap seconds (:60) are refused: epoch milliseconds cannot represent them.
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, "0"));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;

  let offsetMinutes = 0;
  if (m[8] === undefined) {
    const offHours = Number(m[10]);
    const offMinutes = m[11] === undefined ? 0 : Number(m[11]);
    if (offMinutes > 59) return null;
    const magnitude = offHours * 60 + offMinutes;
    offsetMinutes = m[9] === "-" ? -magnitude : magnitude;
    if (Math.abs(offsetMinutes) > MAX_OFFSET_MINUTES) return null;
  }

  const days = daysFromCivil(year, month, day);
  const localMs = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + millis;
  return localMs - offsetMinutes * 60_000;
}

/**
 * ISO 8601 UTC text with milliseconds, the one form the API writes instants in.
 * Throws a RangeError for a non-finite or out-of-range value.
 * @example formatInstant(1_795_341_600_000) // "2026-11-22T10:00:00.000Z"
 */
export function formatInstant(ms: number): string {
  // Each entry's text is its instant's, and either branch leaves `recent` holding `ms`.
  // Stryker disable next-line ConditionalExpression: equivalent, entering on a hit (true) swaps in or writes again the same text.
  if (ms !== recent.ms) {
    // Stryker disable next-line ConditionalExpression: equivalent, passing a hit on `older` by (false) writes its text again.
    if (ms === older.ms) [recent, older] = [older, recent];
    else {
      // toISOString is UTC by definition, so the host time zone cannot leak in.
      const text = new Date(ms).toISOString();
      older = recent;
      recent = { ms, text };
    }
  }
  return recent.text;
}

// The last two instants written, newest first. A server writes the same few instants over and
// over (every answer of one millisecond carries it, a status read a timer's target beside it),
// and toISOString costs about half a microsecond. NaN never matches, so it still throws.
let recent: { ms: number; text: string } = { ms: Number.NaN, text: "" };
let older: { ms: number; text: string } = { ms: Number.NaN, text: "" };
