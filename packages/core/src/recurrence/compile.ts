// From a stored recurring definition (rule text, wall-clock strings, zone) to a
// ready Schedule. Status is computed on every request and every email image, so
// parsed schedules are memoised by their text: the same definition never pays
// for parsing or set-up twice (within a bounded cache).

import { parseLocalDateTime } from "../time/local-date-time";
import { boundedCache } from "./_bounded-cache";
import { parseRRule } from "./rrule";
import { createSchedule, type Schedule } from "./schedule";

/** The `recurrence` part of a recurring timer definition that decides its occurrences. */
export interface RecurrenceSpec {
  rrule: string;
  /** Wall-clock `YYYY-MM-DDTHH:mm[:ss]` in the timer's zone. */
  dtstart: string;
  /** Wall-clock exception dates in the timer's zone. */
  exdates?: readonly string[];
}

const compiled = boundedCache<string, Schedule>(512);

/**
 * The Schedule of a recurring definition in IANA `zone`, memoised by its text.
 * Throws a RangeError for an invalid rule, date-time or zone (validated
 * definitions never have one).
 * @example compileRecurrence({ rrule: "FREQ=DAILY;BYHOUR=9", dtstart: "2026-01-01T09:00" }, "Asia/Kolkata").next(Date.now())
 */
export function compileRecurrence(spec: RecurrenceSpec, zone: string): Schedule {
  const exdates = spec.exdates ?? [];
  // Newlines cannot occur in any of the parts, so the key is unambiguous.
  const key = `${zone}\n${spec.rrule}\n${spec.dtstart}\n${exdates.join("\n")}`;
  return compiled.get(key, () => {
    const parsed = parseRRule(spec.rrule);
    if (!parsed.ok) throw new RangeError(parsed.message);
    const dtstart = parseLocalDateTime(spec.dtstart);
    if (dtstart === null) throw new RangeError(`invalid dtstart: ${spec.dtstart}`);
    const exdateValues = exdates.map((text) => {
      const value = parseLocalDateTime(text);
      if (value === null) throw new RangeError(`invalid exdate: ${text}`);
      return value;
    });
    return createSchedule(parsed.rule, dtstart, zone, { exdates: exdateValues });
  });
}
