// The rules of a fixed timer's deadline that span fields: exactly one of
// `deadline_at` and `deadline_local`, and a `timezone` sent with the latter.
// They are checked on the raw body, beside zod, because zod's object-level
// refinements do not run once a field has failed, and a client that forgot the
// deadline should hear it together with the other missing fields.
import { resolveLocal } from "../recurrence/resolve";
import { parseLocalDateTime } from "../time/local-date-time";
import { isCanonicalTimeZone } from "../time/timezones";
import { INSTANT_RANGE } from "./fields";
import type { ValidationIssue } from "./issues";

/** The issues of a fixed timer's deadline fields in `body` (a create body or a merged patch). */
export function fixedDeadlineIssues(body: Record<string, unknown>): ValidationIssue[] {
  const at = body["deadline_at"];
  const local = body["deadline_local"];
  if (at === undefined && local === undefined)
    return [
      {
        code: "missing_field",
        field: "deadline_at",
        message: "deadline_at is required for a fixed timer",
      },
    ];
  if (at !== undefined && local !== undefined)
    return [
      {
        code: "validation_error",
        field: "deadline_local",
        message:
          "deadline_local cannot be combined with deadline_at: send the deadline in one form",
      },
    ];
  if (local === undefined) return [];
  const zone = body["timezone"];
  // The default zone (UTC) would silently misread a wall-clock time meant for elsewhere.
  if (zone === undefined || zone === null)
    return [
      {
        code: "missing_field",
        field: "timezone",
        message: "timezone is required with deadline_local (the zone its wall-clock time is in)",
      },
    ];
  // Malformed values are zod's to report; only a well-formed pair can be resolved.
  // A regular expression would read an array ["2026-01-01T00:00"] as its one element.
  const value = typeof local === "string" ? parseLocalDateTime(local) : null;
  // Stryker disable next-line ConditionalExpression: equivalent, isCanonicalTimeZone looks the name up in a set of strings, which holds no other value; the check is for the type.
  if (value === null || typeof zone !== "string" || !isCanonicalTimeZone(zone)) return [];
  const instant = resolveLocal(value, zone);
  // Stryker disable next-line EqualityOperator: equivalent for the upper bound, which ends in .999 while wall times have whole seconds.
  if (instant >= INSTANT_RANGE.min && instant <= INSTANT_RANGE.max) return [];
  return [
    {
      code: "validation_error",
      field: "deadline_local",
      message: "deadline_local must lie between the years 0000 and 9999 in UTC once resolved",
    },
  ];
}
