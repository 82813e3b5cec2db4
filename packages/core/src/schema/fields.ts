// Field schemas shared by several timer types. Every custom message is a
// lowercase predicate ("must ..."): the issue mapper prefixes the field path, so
// one schema yields "deadline_at must ..." and "not_after must ..." alike.
import { z } from "zod";
import { formatLocalDateTime, parseLocalDateTime } from "../time/local-date-time";
import { formatInstant, parseOffsetDateTime } from "../time/offset-date-time";
import { isCanonicalTimeZone } from "../time/timezones";
import { adviseTimeZone, timeZoneAdviceText } from "../time/zone-advice";

// formatInstant writes four-digit years only inside this range, and only what it
// writes parses back, so stored values always round-trip.
const MIN_INSTANT = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z
const MAX_INSTANT = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/** The instants (epoch ms) a stored deadline may take: years 0000 to 9999 in UTC. */
export const INSTANT_RANGE = Object.freeze({ min: MIN_INSTANT, max: MAX_INSTANT });

const OFFSET_MESSAGE =
  "must be an ISO 8601 date-time with Z or a numeric UTC offset, like 2026-11-22T10:00:00Z";

/** An instant as ISO 8601 text with Z or an offset, normalized to UTC with milliseconds. */
export function offsetDateTime() {
  return (
    z
      .string()
      // Normalized before the check, and only a valid instant: the check then reads the UTC
      // text back, so a value normalized that should not be fails instead of passing.
      .overwrite((text) => {
        const ms = parseOffsetDateTime(text);
        return ms !== null && ms >= MIN_INSTANT && ms <= MAX_INSTANT ? formatInstant(ms) : text;
      })
      .superRefine((text, ctx) => {
        const ms = parseOffsetDateTime(text);
        // A message alone is a "custom" issue to zod.
        if (ms === null) ctx.addIssue(OFFSET_MESSAGE);
        else if (ms < MIN_INSTANT || ms > MAX_INSTANT)
          ctx.addIssue("must lie between the years 0000 and 9999 in UTC");
      })
  );
}

/** A wall-clock `YYYY-MM-DDTHH:mm[:ss]` with no offset, normalized to `...:ss`. */
export function localDateTime() {
  return (
    z
      .string()
      // Normalized first, as offsetDateTime: the check then reads the normalized text.
      .overwrite((text) => {
        const value = parseLocalDateTime(text);
        return value === null ? text : formatLocalDateTime(value);
      })
      .superRefine((text, ctx) => {
        if (parseLocalDateTime(text) !== null) return;
        // Sending an offset is the likely mistake here, so say why it is refused.
        const message =
          parseOffsetDateTime(text) === null
            ? "must be a local date-time YYYY-MM-DDTHH:mm[:ss], like 2026-11-22T09:00"
            : "must be a local date-time without Z or offset (it is read in the timer's timezone), like 2026-11-22T09:00";
        ctx.addIssue(message);
      })
  );
}

/** A canonical IANA zone name from the tz database's own lists (see GET /timezones). */
export function timeZone() {
  return z
    .string()
    .superRefine((name, ctx) => {
      if (isCanonicalTimeZone(name)) return;
      const advice = adviseTimeZone(name);
      const base = "must be a canonical IANA time zone like Europe/Berlin (see GET /timezones)";
      const more = timeZoneAdviceText(advice);
      ctx.addIssue({
        code: "custom",
        message: more === "" ? base : `${base}; ${more}`,
        // The mapper hands these on as the error's details.suggestions.
        params: { suggestions: advice.suggestions },
      });
    })
    .meta({
      description:
        "Canonical IANA time zone identifier (Area/Location, or Etc/UTC); GET /timezones lists them.",
      examples: ["Europe/Berlin"],
    });
}

/** A colour `#RRGGBB`, normalized to upper case. */
export function hexColor() {
  return z
    .string()
    .regex(/^#[0-9A-Fa-f]{6}$/, "must be a colour in the form #RRGGBB, like #1E40AF")
    .overwrite((hex) => hex.toUpperCase())
    .meta({ examples: ["#1E40AF"] });
}

/** An absolute `https:` URL of at most 2048 characters, without credentials. */
export function httpsUrl() {
  return z
    .string()
    .max(2048)
    .refine(isHttpsUrl, "must be an absolute https:// URL without user name or password")
    .meta({ format: "uri" });
}

/**
 * An {@link httpsUrl} that the server sends back in a `Location` header or a page (the email
 * link's targets, the ended image and redirect), stored as the URL parser writes it: plain ASCII (spaces and non-ASCII
 * percent-encoded, the host in punycode, tabs and line breaks dropped), so it is a valid
 * `uri` in responses and can never split a header.
 */
export function httpsLink() {
  return httpsUrl().overwrite((text) => (URL.canParse(text) ? new URL(text).href : text));
}

/**
 * An absolute `http:` or `https:` URL of at most 2048 characters, without credentials:
 * for links a viewer follows (never loaded by the page, so plain http is no mixed content).
 */
export function webUrl() {
  return z
    .string()
    .max(2048)
    .refine(
      (text) => isWebUrl(text, ["http:", "https:"]),
      "must be an absolute http:// or https:// URL without user name or password",
    )
    .meta({ format: "uri" });
}

function isHttpsUrl(text: string): boolean {
  // Plain http would be blocked as mixed content on https pages and in most email clients.
  return isWebUrl(text, ["https:"]);
}

function isWebUrl(text: string, protocols: readonly string[]): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  // Credentials in a URL shown to every viewer would leak. No host test: an http: or https:
  // URL without one does not parse (only these two protocols are ever allowed).
  return protocols.includes(url.protocol) && !url.username && !url.password;
}

/** A whole number of seconds within `min..max`. */
export function seconds(min: number, max: number) {
  // zod says "expected number" for a string; "integer" is the rule that matters.
  return z
    .int({
      // A missing value gets this too, unread: the mapper words missing fields itself.
      error: (issue) => (issue.code === "invalid_type" ? "must be an integer" : undefined),
    })
    .min(min)
    .max(max);
}
