import { TZDB_VERSION } from "@tminus/core";
import { z } from "zod";
import { CURSOR_PARAMETER, LIMIT_PARAMETER } from "../paging";
import { DELIVERY_ID, DESTINATION_ID, RULE_ID, TIMER_ID } from "./parameters";

const integer = { type: "integer" } as const;

/** Response headers, referenced by name from every response that carries them. */
export const HEADER_COMPONENTS = {
  "X-Request-Id": {
    description: "The request's id (a UUID), equal to the body's `request_id`. On every response.",
    required: true,
    schema: { type: "string", format: "uuid" },
  },
  "RateLimit-Limit": {
    description: "Requests allowed in the current one-minute window.",
    required: true,
    schema: integer,
  },
  "RateLimit-Remaining": {
    description: "Requests left in the current window.",
    required: true,
    schema: integer,
  },
  "RateLimit-Reset": {
    description: "Unix time in seconds at which the window resets (not seconds-until).",
    required: true,
    schema: integer,
  },
  "RateLimit-Limit-Optional": {
    description: "As on success; present once the key was authenticated.",
    schema: integer,
  },
  "RateLimit-Remaining-Optional": {
    description: "As on success; present once the key was authenticated.",
    schema: integer,
  },
  "RateLimit-Reset-Optional": {
    description: "As on success; present once the key was authenticated.",
    schema: integer,
  },
  "Tminus-Key-Expires-At": {
    description:
      "Only on requests made with a rolled key (`tminus keys roll`): when that key stops working, ISO 8601 UTC. Switch to its replacement before then.",
    schema: { type: "string", format: "date-time" },
  },
  "Retry-After": {
    description:
      "On `rate_limited` only: whole seconds until the window ends (at least 1). Authoritative for the wait. `quota_exhausted` never has it.",
    schema: { type: "integer", minimum: 1 },
  },
  ETag: {
    description: 'The timer\'s revision as a strong entity tag, e.g. `"r3"`; send it in If-Match.',
    required: true,
    schema: { type: "string" },
  },
  Location: {
    description: "URL of the created timer.",
    required: true,
    schema: { type: "string", format: "uri" },
  },
  "Idempotent-Replayed": {
    description:
      "`true` when this is the stored first response to an earlier request with the same Idempotency-Key.",
    schema: { type: "string", enum: ["true"] },
  },
  "Tminus-Tzdb-Version": {
    description: `The tz database release the accepted list comes from (${TZDB_VERSION}).`,
    required: true,
    schema: { type: "string" },
  },
  "Tminus-Icu-Tz-Version": {
    description:
      "The tz data release of the runtime's ICU, which computes the offsets (Node's `process.versions.tz`); absent when the runtime does not report it.",
    schema: { type: "string" },
  },
} as const;

/** The response headers of every authenticated success. */
export const SUCCESS_HEADERS = [
  "X-Request-Id",
  "RateLimit-Limit",
  "RateLimit-Remaining",
  "RateLimit-Reset",
  "Tminus-Key-Expires-At",
] as const;

/** A response header name. */
export type HeaderName = keyof typeof HEADER_COMPONENTS;

/**
 * A parameter as the document shows it, from its zod schema: the value's JSON Schema (what the
 * parsed value is, e.g. an integer for `limit`) with the schema's description and example
 * lifted beside it.
 */
export function parameterDoc(
  name: string,
  where: "path" | "query",
  schema: z.ZodType,
): Record<string, unknown> {
  const {
    $schema: _dialect,
    description,
    example,
    ...json
  } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io: "output",
    // Transforms (a date-time read into an instant) show the type their metadata names.
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return {
    name,
    in: where,
    ...(where === "path" ? { required: true } : {}),
    description,
    schema: ordered(json),
    ...(example === undefined ? {} : { example }),
  };
}

// Keywords in the order a reader expects (type first, the default last). The format says what
// the pattern zod adds beside it does, and validators check formats.
const KEYWORDS = ["type", "format", "enum", "pattern", "minimum", "maximum"];
const LAST = ["minLength", "maxLength", "default"];
function ordered(json: Record<string, unknown>): Record<string, unknown> {
  if (typeof json.format === "string") delete json.pattern;
  const rank = (k: string) =>
    KEYWORDS.includes(k) ? KEYWORDS.indexOf(k) : LAST.includes(k) ? 100 + LAST.indexOf(k) : 50;
  return Object.fromEntries(Object.entries(json).sort(([a], [b]) => rank(a) - rank(b)));
}

/** The parameters shared by several operations, by component name, with their schemas. */
const SHARED = {
  Limit: ["limit", "query", LIMIT_PARAMETER],
  Cursor: ["cursor", "query", CURSOR_PARAMETER],
  TimerId: ["timer_id", "path", TIMER_ID],
  DestinationId: ["destination_id", "path", DESTINATION_ID],
  RuleId: ["rule_id", "path", RULE_ID],
  DeliveryId: ["delivery_id", "path", DELIVERY_ID],
} as const satisfies Record<string, readonly [string, "path" | "query", z.ZodType]>;

const shared = (component: keyof typeof SHARED) => {
  const [name, where, schema] = SHARED[component];
  return parameterDoc(name, where, schema);
};

const IDEMPOTENCY_KEY = {
  type: "string",
  minLength: 1,
  maxLength: 255,
  pattern: "^[\\x20-\\x7E]+$",
} as const;

/** Shared parameters, referenced by name. */
export const PARAMETER_COMPONENTS = {
  Limit: shared("Limit"),
  Cursor: shared("Cursor"),
  TimerId: shared("TimerId"),
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: true,
    description:
      "1 to 255 printable ASCII characters, unique per new timer. Repeating a request with the same key replays the first response (`Idempotent-Replayed: true`) for 24 hours; the same key with a different request is `409 idempotency_conflict`.",
    schema: IDEMPOTENCY_KEY,
  },
  IdempotencyKeyOptional: {
    name: "Idempotency-Key",
    in: "header",
    description:
      "Optional here; when sent, it works as on POST /timers (replay, `idempotency_conflict`).",
    schema: IDEMPOTENCY_KEY,
  },
  IfMatch: {
    name: "If-Match",
    in: "header",
    required: true,
    description:
      'The timer\'s revision from your last read: its ETag (`"r3"`) or its `revision` field (`r3`). Missing: `400 missing_field`; stale: `409 revision_conflict` (re-read, then retry).',
    schema: { type: "string" },
  },
  DestinationId: shared("DestinationId"),
  RuleId: shared("RuleId"),
  DeliveryId: shared("DeliveryId"),
} as const;

/** A shared parameter's name. */
export type ParameterName = keyof typeof PARAMETER_COMPONENTS;

const COMPONENT_OF = new Map<z.ZodType, ParameterName>(
  Object.entries(SHARED).map(([name, [, , schema]]) => [schema, name as ParameterName]),
);

/** The component a parameter schema is documented as, when it is a shared one. */
export function componentOf(schema: z.ZodType): ParameterName | undefined {
  return COMPONENT_OF.get(
    schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema,
  );
}
