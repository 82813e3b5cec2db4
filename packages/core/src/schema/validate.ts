import { TIMER_TYPES, type TimerType } from "./constants";
import { fastTimerCreate } from "./fast-create";
import { fixedDeadlineIssues } from "./fixed-deadline";
import { toValidationIssues, type ValidationIssue, type ValidationResult } from "./issues";
import { type TimerDefinition, timerCreateSchema } from "./timer";

/** Whether `value` is a JSON-style object: not null, not an array, not a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The failed result for a body that is not a JSON object (an array, a string, null). */
export function notAnObject(): { ok: false; issues: ValidationIssue[] } {
  return {
    ok: false,
    issues: [
      { code: "validation_error", field: "body", message: "the body must be a JSON object" },
    ],
  };
}

/** The body's `type` when it is one of {@link TIMER_TYPES}. */
export function timerTypeOf(body: Record<string, unknown>): TimerType | undefined {
  const type = body["type"];
  return TIMER_TYPES.find((known) => known === type);
}

/**
 * Validates a POST /timers body and returns the complete definition (defaults
 * applied, instants normalized to UTC) or the issues, most useful first.
 * @example
 * const result = validateTimerCreate({ type: "fixed", name: "Launch", deadline_at: "2026-11-27T09:00:00+01:00" });
 * if (!result.ok) throw new Error(result.issues[0]?.message);
 */
export function validateTimerCreate(body: unknown): ValidationResult<TimerDefinition> {
  if (!isPlainObject(body)) return notAnObject();
  const fast = fastTimerCreate(body);
  if (fast !== undefined) return { ok: true, value: fast };
  return validateWithSchema(body);
}

/**
 * {@link validateTimerCreate} through the zod schema alone, without the fast path: the
 * reference the fast path is tested against.
 */
export function validateWithSchema(body: unknown): ValidationResult<TimerDefinition> {
  if (!isPlainObject(body)) return notAnObject();
  const type = timerTypeOf(body);
  const parsed = timerCreateSchema.safeParse(body, { reportInput: true });
  const extra = type === "fixed" ? fixedDeadlineIssues(body) : [];
  if (parsed.success && extra.length === 0) return { ok: true, value: parsed.data };
  return {
    ok: false,
    issues: toValidationIssues(parsed.success ? [] : parsed.error.issues, { type }, extra),
  };
}
