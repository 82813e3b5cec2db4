import { daysInMonth } from "./_calendar";

/** A wall-clock date and time with no zone or offset (a recurring timer's dtstart). */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * Parses a wall-clock `YYYY-MM-DDTHH:mm[:ss]` with no offset, or returns `null`
 * when it is malformed or names an impossible date or time. Whether the time
 * exists in a given zone (DST gaps) is the caller's question, not this one's.
 */
export function parseLocalDateTime(text: string): LocalDateTime | null {
  const m = LOCAL_DATE_TIME.exec(text);
  if (!m) return null;
  const value: LocalDateTime = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: m[6] === undefined ? 0 : Number(m[6]),
  };
  if (value.month < 1 || value.month > 12) return null;
  if (value.day < 1 || value.day > daysInMonth(value.year, value.month)) return null;
  if (value.hour > 23 || value.minute > 59 || value.second > 59) return null;
  return value;
}

/** The canonical `YYYY-MM-DDTHH:mm:ss` text of a wall-clock value. */
export function formatLocalDateTime(value: LocalDateTime): string {
  const p = (n: number, width = 2) => String(n).padStart(width, "0");
  return (
    `${p(value.year, 4)}-${p(value.month)}-${p(value.day)}` +
    `T${p(value.hour)}:${p(value.minute)}:${p(value.second)}`
  );
}
