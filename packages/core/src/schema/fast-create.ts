// A fast path for the common POST /timers bodies. zod's discriminated union costs about a
// tenth of a create's server CPU, most of it spent on bodies that are valid and plain (a
// fixed or duration timer, no look). This path only ever says "valid, and here is the value"
// or "not mine": every body it does not accept (any error, any field or shape it does not
// handle) goes to zod, so issues and messages stay zod's. Sub-objects it does not check by
// hand (a given look, ended, metadata) are parsed with the same zod schemas the union uses, and
// so is any common field (common-fields.ts) without a hand-written check.
// test/schema-fast-create.test.ts checks with fast-check that both agree.
import type { z } from "zod";
import { formatLocalDateTime, parseLocalDateTime } from "../time/local-date-time";
import { formatInstant, parseOffsetDateTime } from "../time/offset-date-time";
import { isCanonicalTimeZone } from "../time/timezones";
import { COMMON_FIELD_NAMES, COMMON_FIELDS, type CommonFieldName } from "./common-fields";
import { DEFAULT_TIMEZONE, MAX_DURATION_SECONDS } from "./constants";
import { endedSchema } from "./ended";
import { INSTANT_RANGE } from "./fields";
import { fixedDeadlineIssues } from "./fixed-deadline";
import { lookSchema, resolveLook } from "./look";
import {
  type DurationTimerDefinition,
  type FixedTimerDefinition,
  START_ON,
  type TimerDefinition,
} from "./timer";

/** Fields every timer type takes. */
const COMMON_KEYS = ["type", ...COMMON_FIELD_NAMES];
const FIXED_KEYS = new Set([
  ...COMMON_KEYS,
  "deadline_at",
  "deadline_local",
  "allow_viewer_timezone",
]);
const DURATION_KEYS = new Set([...COMMON_KEYS, "duration_seconds", "not_after", "start_on"]);

// The common fields whose zod schema costs more than a check by hand; the field's own create
// schema (its own instance: same rules, same output) for the rest. A check answers the field's
// value, or undefined for a value the fast path leaves to zod.
const HAND_CHECKS: { [K in CommonFieldName]?: (value: unknown) => unknown } = {
  name: nameOf,
  timezone: timeZoneOf,
  look: lookOf,
  ended: endedOf,
};

/** Each common field's check, in the schemas' order. */
const COMMON_CHECKS = COMMON_FIELD_NAMES.map(
  (key) => [key, HAND_CHECKS[key] ?? schemaCheck(COMMON_FIELDS[key].create())] as const,
);

// A field whose create schema gives undefined (an optional field left out) is left to zod
// too: its output then lacks the key, which this path does not write.
function schemaCheck(schema: z.ZodType): (value: unknown) => unknown {
  return (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  };
}

/**
 * The definition zod's `timerCreateSchema` would give for `body`, when `body` is a valid fixed
 * or duration timer this path can check by hand; `undefined` for anything else (invalid
 * bodies included), which the caller then hands to zod.
 */
export function fastTimerCreate(body: Record<string, unknown>): TimerDefinition | undefined {
  const type = body["type"];
  const keys = type === "fixed" ? FIXED_KEYS : type === "duration" ? DURATION_KEYS : undefined;
  if (keys === undefined) return undefined;
  // Own string keys only, all known, none holding undefined (zod keeps such keys in its output).
  if (Object.getOwnPropertySymbols(body).length > 0) return undefined;
  for (const key of Object.keys(body))
    if (!keys.has(key) || body[key] === undefined) return undefined;
  if (Object.getOwnPropertyNames(body).length !== Object.keys(body).length) return undefined;

  // Keys in the schema's order (zod's output order), so the stored JSON is the same text.
  const common: Record<string, unknown> = { type };
  for (const [key, check] of COMMON_CHECKS) {
    const value = check(body[key]);
    if (value === undefined) return undefined;
    common[key] = value;
  }

  if (type === "fixed") {
    if (fixedDeadlineIssues(body).length > 0) return undefined;
    const out = common as FixedTimerDefinition;
    if (body["deadline_at"] !== undefined) {
      const at = instantOf(body["deadline_at"]);
      if (at === undefined) return undefined;
      out.deadline_at = at;
    } else {
      const local = localOf(body["deadline_local"]);
      if (local === undefined) return undefined;
      out.deadline_local = local;
    }
    // Absent only: a null is zod's to refuse.
    const viewer = orDefault(body["allow_viewer_timezone"], false);
    if (typeof viewer !== "boolean") return undefined;
    out.allow_viewer_timezone = viewer;
    return out;
  }
  const seconds = body["duration_seconds"];
  if (!Number.isInteger(seconds) || (seconds as number) < 1) return undefined;
  if ((seconds as number) > MAX_DURATION_SECONDS) return undefined;
  const out = common as DurationTimerDefinition;
  out.duration_seconds = seconds as number;
  if (body["not_after"] !== undefined) {
    const notAfter = instantOf(body["not_after"]);
    if (notAfter === undefined) return undefined;
    out.not_after = notAfter;
  }
  const startOn = orDefault(body["start_on"], "first_open");
  if (!(START_ON as readonly unknown[]).includes(startOn)) return undefined;
  out.start_on = startOn as DurationTimerDefinition["start_on"];
  return out;
}

function orDefault(value: unknown, fallback: unknown): unknown {
  return value === undefined ? fallback : value;
}

function nameOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const name = value.trim();
  return name.length >= 1 && name.length <= 200 ? name : undefined;
}

function timeZoneOf(value: unknown): string | undefined {
  if (value === undefined) return DEFAULT_TIMEZONE;
  // Stryker disable next-line ConditionalExpression: equivalent, isCanonicalTimeZone looks the name up in a set of strings, which holds no other value; the check is for the type.
  return typeof value === "string" && isCanonicalTimeZone(value) ? value : undefined;
}

function lookOf(value: unknown): ReturnType<typeof resolveLook> | undefined {
  // What zod's prefault({}) gives for an absent look: {} resolved (lookOutputSchema leaves
  // a resolved default look as it is; the test compares the two).
  if (value === undefined) return resolveLook({});
  const parsed = lookSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function endedOf(value: unknown): z.output<typeof endedSchema> | undefined {
  if (value === undefined) return { text: "Ended" };
  const parsed = endedSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function instantOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const ms = parseOffsetDateTime(value);
  if (ms === null || ms < INSTANT_RANGE.min || ms > INSTANT_RANGE.max) return undefined;
  return formatInstant(ms);
}

function localOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const parsed = parseLocalDateTime(value);
  return parsed === null ? undefined : formatLocalDateTime(parsed);
}
