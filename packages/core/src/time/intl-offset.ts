// UTC offsets of IANA zones read straight from the runtime's Intl (ICU's tz data in Node, the
// browser's own in a page). luxon did this before at 71 KB of bundle for one method; the
// arithmetic is ours (_calendar.ts), so no answer depends on Date's local-time methods.
import { daysFromCivil } from "./_calendar";

const FIELDS: Intl.DateTimeFormatOptions = {
  hourCycle: "h23",
  era: "short",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
};

// Building a formatter costs tens of microseconds; reading one, a few. Zones come from stored
// definitions and viewers' `tz`: bounded, above the ~600 names ICU knows (links included), so
// GET /timezones (419 zones) never builds one twice. Any other spelling Intl accepts (letter
// case) is a key of its own, so the cache starts over when full.
export const MAX_FORMATS = 1024;
const formats = new Map<string, Intl.DateTimeFormat>();

/** How many formatters are kept now: at most MAX_FORMATS (tests read the bound). */
export function cachedFormats(): number {
  return formats.size;
}

/**
 * The formatter of `zone`. Throws a RangeError for a zone the runtime does not know (Intl's
 * own error, reworded).
 */
function formatFor(zone: string): Intl.DateTimeFormat {
  return formats.get(zone) ?? newFormat(zone);
}

function newFormat(zone: string): Intl.DateTimeFormat {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", { ...FIELDS, timeZone: zone });
  } catch {
    throw new RangeError(`Unknown IANA time zone: ${JSON.stringify(zone)}`);
  }
  if (formats.size >= MAX_FORMATS) formats.clear();
  formats.set(zone, format);
  return format;
}

/** Whether the runtime's Intl knows `zone` (links and any letter case included). */
export function isKnownZone(zone: string): boolean {
  try {
    formatFor(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * UTC offset in milliseconds of IANA `zone` at `instant` (epoch ms), whole seconds (LMT
 * offsets have them). Uncached apart from the formatter: callers memoise (zone-offset.ts).
 * Throws a RangeError for an unknown zone or a non-finite instant.
 */
export function intlOffsetMs(zone: string, instant: number): number {
  if (!Number.isFinite(instant)) throw new RangeError("An instant must be a finite number");
  const fields: Record<string, string> = {};
  for (const part of formatFor(zone).formatToParts(instant)) fields[part.type] = part.value;
  const yearOfEra = Number(fields.year);
  // ICU writes years before 1 CE as "BC" years of era: 1 BC is year 0.
  const year = fields.era === "BC" ? 1 - yearOfEra : yearOfEra;
  const hour = Number(fields.hour) % 24;
  const local =
    ((daysFromCivil(year, Number(fields.month), Number(fields.day)) * 24 + hour) * 60 +
      Number(fields.minute)) *
      60_000 +
    Number(fields.second) * 1000;
  // The wall clock shows whole seconds: compare it with the instant's own whole second.
  const second = Math.floor(instant / 1000) * 1000;
  return local - second;
}
