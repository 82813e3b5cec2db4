// Turns zod's issues into the API's: a stable code, the dotted field, and a
// message that names the field and the rule. Schemas give their own messages as
// lowercase predicates ("must ..."); zod's built-in messages are capitalized and
// are replaced here with wording of our own.
import type { z } from "zod";
import type { TimerType } from "./constants";

/** One problem with a request body, in the form the API reports it. */
export interface ValidationIssue {
  /** missing_field: a required field is absent; invalid_timezone: not a canonical zone. */
  code: "missing_field" | "validation_error" | "invalid_timezone";
  /** Dotted path of the field, like "look.font_size" or "recurrence.exdates[2]"; "body" for the whole. */
  field: string;
  /** Names the field and the rule it broke; may be reworded between releases. */
  message: string;
  /** invalid_timezone: canonical zones the value probably meant ("EST" -> America/New_York). */
  suggestions?: string[];
}

/** A validated value, or the issues that stopped it, most useful first. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

type ZodIssue = z.core.$ZodIssue;

/** Where an issue came from, for messages that name the timer type. */
export interface IssueContext {
  type?: TimerType | undefined;
}

/** Maps zod issues to API issues and orders them so that issues[0] is the one to report. */
export function toValidationIssues(
  issues: readonly ZodIssue[],
  context: IssueContext = {},
  /** Issues found beside zod (rules across fields), ranked with the rest. */
  extra: readonly ValidationIssue[] = [],
): ValidationIssue[] {
  const mapped: Array<ValidationIssue & { rank: number }> = [];
  for (const issue of issues) {
    for (const item of mapIssue(issue, context))
      mapped.push({ ...item, rank: rankOf(item, issue) });
  }
  // A field zod already faulted is not reported twice.
  for (const item of extra)
    if (!mapped.some((m) => m.field === item.field))
      mapped.push({ ...item, rank: rankOf(item, undefined) });
  // A missing field usually explains the other issues (a client sending the
  // wrong type's fields), and unknown keys are the least likely to matter.
  // Array.prototype.sort is stable, so schema order breaks ties.
  mapped.sort((a, b) => a.rank - b.rank);
  return mapped.map(({ rank: _, ...item }) => item);
}

function rankOf(item: ValidationIssue, issue: ZodIssue | undefined): number {
  if (item.field === "body") return 0;
  if (item.code === "missing_field") return 1;
  if (item.code === "invalid_timezone") return 2;
  return issue?.code === "unrecognized_keys" ? 4 : 3;
}

/** "look.font_size", "recurrence.exdates[2]". */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? String(segment) : `.${String(segment)}`;
  }
  return out;
}

function isOwnMessage(message: string): boolean {
  return /^[a-z]/.test(message);
}

function mapIssue(issue: ZodIssue, context: IssueContext): ValidationIssue[] {
  const field = fieldPath(issue.path);
  if (issue.path.length === 0 && issue.code === "invalid_type") {
    return [{ code: "validation_error", field: "body", message: "the body must be a JSON object" }];
  }
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({
      code: "validation_error",
      field: fieldPath([...issue.path, key]),
      message: unknownKeyMessage(field, key, context),
    }));
  }
  const missing = isMissing(issue);
  if (missing) {
    const of =
      issue.path.length === 1 && context.type
        ? ` for a ${context.type} timer`
        : (own(CONDITIONALLY_REQUIRED, field) ?? "");
    const options = unionOptions(issue);
    return [
      {
        code: "missing_field",
        field,
        message: `${field} is required${of}${options ? ` (${oneOf(options)})` : ""}`,
      },
    ];
  }
  // The specification gives timezone its own code, whatever is wrong with it.
  const code = field === "timezone" ? "invalid_timezone" : "validation_error";
  const suggestions =
    issue.code === "custom"
      ? (issue.params as { suggestions?: string[] } | undefined)?.suggestions
      : undefined;
  return [
    {
      code,
      field: issue.code === "invalid_key" ? fieldPath(issue.path.slice(0, -1)) : field,
      message: describe(issue, field),
      ...(suggestions ? { suggestions } : {}),
    },
  ];
}

function isMissing(issue: ZodIssue): boolean {
  if (issue.code === "invalid_type") return issue.input === undefined;
  // A discriminated union reports a missing or unknown discriminator with its name (no
  // other issue carries one) and the whole object as input, or none without reportInput.
  const { discriminator } = issue as { discriminator?: string };
  if (discriminator === undefined) return false;
  const input = issue.input as Record<string, unknown> | undefined;
  return input?.[discriminator] === undefined;
}

function describe(issue: ZodIssue, field: string): string {
  if (isOwnMessage(issue.message)) return `${field} ${issue.message}`;
  switch (issue.code) {
    case "invalid_type":
      return `${field} must be ${expectedText(issue.expected)}${issue.input === null ? ", not null" : ""}`;
    case "too_small":
      return `${field} ${tooSmallText(issue.origin, Number(issue.minimum), issue.inclusive !== false)}`;
    case "too_big":
      return `${field} ${tooBigText(issue.origin, Number(issue.maximum), issue.inclusive !== false)}`;
    case "invalid_value":
      return `${field} must be ${oneOf(issue.values)}`;
    case "invalid_union": {
      const options = unionOptions(issue);
      return options
        ? `${field} must be ${oneOf(options)}`
        : `${field} does not match any allowed form`;
    }
    case "invalid_key": {
      const key = issue.path[issue.path.length - 1];
      // zod always gives invalid_key the issue of the key itself.
      const rule = describe(issue.issues[0]!, "").trim();
      return `${fieldPath(issue.path.slice(0, -1))} key ${JSON.stringify(String(key))} ${rule}`;
    }
    case "not_multiple_of":
      return `${field} must be a multiple of ${issue.divisor}`;
    default:
      return `${field} is invalid`;
  }
}

// Discriminated unions list their discriminator values (never none); no other issue has options.
function unionOptions(issue: ZodIssue): readonly unknown[] | undefined {
  return (issue as { options?: readonly unknown[] }).options;
}

function expectedText(expected: string): string {
  switch (expected) {
    case "int":
      return "an integer";
    case "boolean":
      return "true or false";
    case "object":
    case "record":
      return "an object";
    case "array":
      return "an array";
    case "string":
      return "a string";
    case "number":
      return "a number";
    default:
      return `of type ${expected}`;
  }
}

function tooSmallText(origin: string, min: number, inclusive: boolean): string {
  if (origin === "string")
    return min <= 1 ? "must not be empty" : `must be at least ${min} characters long`;
  if (origin === "array") return min <= 1 ? "must not be empty" : `must have at least ${min} items`;
  return inclusive ? `must be at least ${min}` : `must be greater than ${min}`;
}

function tooBigText(origin: string, max: number, inclusive: boolean): string {
  if (origin === "string") return `must be at most ${max} characters long`;
  if (origin === "array") return `must have at most ${max} items`;
  return inclusive ? `must be at most ${max}` : `must be less than ${max}`;
}

function oneOf(values: readonly unknown[]): string {
  const shown = values.map((value) => JSON.stringify(value));
  return shown.length === 1 ? shown[0]! : `one of ${shown.join(", ")}`;
}

// Nested fields required in one branch of a union say which branch.
const CONDITIONALLY_REQUIRED: Readonly<Record<string, string>> = {
  "personalization.offset_seconds": ' when personalization.source is "start"',
};

// A key that belongs to another branch gets a message saying where it belongs.
const CONDITIONAL_KEYS: Readonly<Record<string, string>> = {
  "personalization.offset_seconds": 'is only allowed when personalization.source is "start"',
};

function unknownKeyMessage(parent: string, key: string, context: IssueContext): string {
  const field = parent === "" ? key : `${parent}.${key}`;
  const conditional = own(CONDITIONAL_KEYS, field);
  if (conditional) return `${field} ${conditional}`;
  if (parent === "") {
    return context.type
      ? `${field} is not a field of a ${context.type} timer`
      : `${field} is not a known field`;
  }
  return `${field} is not a field of ${parent}`;
}

// Field names come from the request, and "__proto__" or "constructor" must not
// find Object.prototype's members.
function own(table: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
