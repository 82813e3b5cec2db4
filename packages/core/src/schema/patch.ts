// PATCH /timers/{id}: every field optional, the type fixed. Top-level fields are
// replaced whole (a `look` sent is the complete new look, unspecified parts take
// their defaults); null clears an optional field back to its default. Because
// every change needs If-Match, clients read the timer first anyway, so
// replacing nested objects whole is simpler and as convenient as merging them.
import { z } from "zod";
import { commonPatchShape } from "./common-fields";
import { MAX_DURATION_SECONDS, type TimerType } from "./constants";
import { offsetDateTime, seconds, timeZone } from "./fields";
import { toValidationIssues, type ValidationResult } from "./issues";
import {
  allowViewerTimezoneField,
  deadlineAtField,
  deadlineLocalField,
  personalizationSchema,
  recurrenceSchema,
  startOnField,
  type TimerDefinition,
} from "./timer";
import { isPlainObject, notAnObject, validateTimerCreate } from "./validate";

function common<T extends TimerType>(type: T) {
  return {
    // Accepting the unchanged type lets clients send back what they read.
    type: z
      .literal(type, {
        error: `cannot be changed (this is a ${type} timer); create a new timer instead`,
      })
      .optional(),
    ...commonPatchShape(),
  };
}

/** Each type's PATCH body schema. */
export const timerPatchSchemas = {
  fixed: z.strictObject({
    ...common("fixed"),
    deadline_at: deadlineAtField().optional(),
    deadline_local: deadlineLocalField().optional(),
    allow_viewer_timezone: allowViewerTimezoneField().nullable().optional(),
  }),
  duration: z.strictObject({
    ...common("duration"),
    duration_seconds: seconds(1, MAX_DURATION_SECONDS).optional(),
    not_after: offsetDateTime().nullable().optional(),
    start_on: startOnField().nullable().optional(),
  }),
  recurring: z.strictObject({
    ...common("recurring"),
    // A recurring timer cannot lose its zone, so no null here.
    timezone: timeZone().optional(),
    recurrence: recurrenceSchema.optional(),
    allow_viewer_timezone: allowViewerTimezoneField().nullable().optional(),
  }),
  personalized: z.strictObject({
    ...common("personalized"),
    personalization: personalizationSchema.optional(),
  }),
} as const;

/** A validated PATCH body: the fields to replace, `null` for those to reset. */
export type TimerPatch = {
  [T in TimerType]: z.output<(typeof timerPatchSchemas)[T]>;
}[TimerType];

/**
 * Validates a PATCH body for a timer of `type`. Fields are validated and
 * normalized as on create; combine with {@link applyTimerPatch}.
 */
export function validateTimerPatch(type: TimerType, body: unknown): ValidationResult<TimerPatch> {
  // zod would take a class instance (a Date, a Map) for an empty patch.
  if (!isPlainObject(body)) return notAnObject();
  const parsed = timerPatchSchemas[type].safeParse(body, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, issues: toValidationIssues(parsed.error.issues, { type }) };
}

/**
 * The definition after a validated patch: fields replaced, nulls reset to their
 * defaults, and the result validated again as a whole.
 */
export function applyTimerPatch(
  current: TimerDefinition,
  patch: TimerPatch,
): ValidationResult<TimerDefinition> {
  const merged: Record<string, unknown> = { ...current };
  // A fixed deadline is held in one form: sending one form replaces the other.
  const sent = patch as Record<string, unknown>;
  // Both sent: both are deleted here and set again below, and the check reports the pair.
  if (sent["deadline_local"] !== undefined) delete merged["deadline_at"];
  if (sent["deadline_at"] !== undefined) delete merged["deadline_local"];
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return validateTimerCreate(merged);
}
