import { TZDB_VERSION } from "@tminus/core";
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from "../paging";
import type { ErrorCase } from "./error-responses";

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

/** Shared parameters, referenced by name. */
export const PARAMETER_COMPONENTS = {
  Limit: {
    name: "limit",
    in: "query",
    description: `Page size, ${1} to ${PAGE_LIMIT_MAX}. Values outside are rejected (\`validation_error\`), not clamped. May change between pages.`,
    schema: { type: "integer", minimum: 1, maximum: PAGE_LIMIT_MAX, default: PAGE_LIMIT_DEFAULT },
  },
  Cursor: {
    name: "cursor",
    in: "query",
    description:
      "Opaque `page.next_cursor` of the previous page; omit for the first. Bound to the query (filters, sort), account and environment that produced it, not to the key (another live key of the account continues it): used with any other query, account or environment, it is a `validation_error` naming `cursor`.",
    schema: { type: "string", minLength: 1, maxLength: 512 },
  },
  TimerId: {
    name: "timer_id",
    in: "path",
    required: true,
    description: "The timer's id. A value that is not a UUID is `400 invalid_timer_id`.",
    schema: { type: "string", format: "uuid" },
  },
  IdempotencyKey: {
    name: "Idempotency-Key",
    in: "header",
    required: true,
    description:
      "1 to 255 printable ASCII characters, unique per new timer. Repeating a request with the same key replays the first response (`Idempotent-Replayed: true`) for 24 hours; the same key with a different request is `409 idempotency_conflict`.",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
  },
  IdempotencyKeyOptional: {
    name: "Idempotency-Key",
    in: "header",
    description:
      "Optional here; when sent, it works as on POST /timers (replay, `idempotency_conflict`).",
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7E]+$" },
  },
  IfMatch: {
    name: "If-Match",
    in: "header",
    required: true,
    description:
      'The timer\'s revision from your last read: its ETag (`"r3"`) or its `revision` field (`r3`). Missing: `400 missing_field`; stale: `409 revision_conflict` (re-read, then retry).',
    schema: { type: "string" },
  },
  DestinationId: webhookIdParameter("destination_id", "webhook destination"),
  RuleId: webhookIdParameter("rule_id", "webhook rule"),
  DeliveryId: webhookIdParameter("delivery_id", "webhook delivery"),
} as const;

function webhookIdParameter(name: string, resource: string) {
  return {
    name,
    in: "path",
    required: true,
    description: `The ${resource}'s id. A value that is not a UUID is \`400 validation_error\` naming \`${name}\`.`,
    schema: { type: "string", format: "uuid" },
  } as const;
}

/** A shared parameter's name. */
export type ParameterName = keyof typeof PARAMETER_COMPONENTS;

/**
 * The path parameters of the webhook routes: each id that is not a UUID is a
 * `validation_error` naming it (the specification's `invalid_timer_id` is for timer ids only).
 */
const WEBHOOK_PATH_PARAMETERS = {
  destination_id: { component: "DestinationId", resource: "webhook destination" },
  rule_id: { component: "RuleId", resource: "webhook rule" },
  delivery_id: { component: "DeliveryId", resource: "webhook delivery" },
} as const;

/** The path parameters of a route template and the errors each implies (malformed, unknown). */
export function pathParameters(path: string): { parameter: ParameterName; errors: ErrorCase[] }[] {
  const out: { parameter: ParameterName; errors: ErrorCase[] }[] = [];
  if (path.includes("{timer_id}")) {
    out.push({
      parameter: "TimerId",
      errors: [{ code: "invalid_timer_id" }, { code: "not_found" }],
    });
  }
  for (const [name, p] of Object.entries(WEBHOOK_PATH_PARAMETERS)) {
    if (!path.includes(`{${name}}`)) continue;
    out.push({
      parameter: p.component,
      errors: [
        {
          code: "validation_error",
          name: `invalid_${name}`,
          message: `${name} "abc" is not a UUID`,
          details: { field: name },
        },
        {
          code: "not_found",
          name: `${name.replace(/_id$/, "")}_not_found`,
          message: `no ${p.resource} 0b6c3c1e-3f0a-4d5e-9a43-8f1b2c3d4e5f in this production account`,
        },
      ],
    });
  }
  return out;
}
