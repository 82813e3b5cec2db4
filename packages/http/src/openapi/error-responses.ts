import { ERROR_STATUS, type ErrorCode } from "../errors";
import { schemaRef } from "../schemas/registry";
import {
  type ErrorCase,
  IDEMPOTENCY_CONFLICT,
  INVALID_TIMER_ID,
  QUOTA_EXHAUSTED,
  STALE_REVISION,
  TIMER_NOT_FOUND,
} from "../vocabulary/error-cases";

export type { ErrorCase };

/** What each code means, and a message the service really sends for it. */
const GENERIC: Record<ErrorCode, { when: string; message: string; details?: object }> = {
  unauthorized: {
    when: "no Authorization header, or not `Bearer <key>` with one space",
    message: "Authorization header is missing; send Authorization: Bearer <API_KEY>",
  },
  invalid_api_key: {
    when: "the key is unknown, revoked, or fails its checksum",
    message: "the API key does not exist or was revoked",
  },
  forbidden: {
    when: "the key is not scoped for this route",
    message: 'this key is not scoped for GET /api/v1/timers; it needs the "timers:read" scope',
  },
  suspended: {
    when: "the key's account is suspended",
    message:
      "the account is suspended; its keys are valid but no request is served until it is reactivated",
  },
  missing_field: {
    when: "a required field or header is absent; `details.field` names it",
    message: "name is required",
    details: { field: "name" },
  },
  validation_error: {
    when: "a field, parameter, header or the body failed validation; `details.field` names it",
    message: "limit must be an integer from 1 to 100",
    details: { field: "limit" },
  },
  invalid_timer_id: {
    when: "the timer id in the path is not a UUID",
    message: INVALID_TIMER_ID.message,
  },
  invalid_timezone: {
    when: 'a timezone is not a canonical IANA identifier from GET /timezones; `details.suggestions` lists the canonical zones it probably meant ("New York" or "EST": America/New_York), empty when none fits, and the message says why an abbreviation or offset is not a zone',
    message:
      "timezone must be a canonical IANA time zone like Europe/Berlin (see GET /timezones); did you mean America/New_York?",
    details: { field: "timezone", suggestions: ["America/New_York"] },
  },
  not_found: {
    when: "no such timer, webhook destination, rule or delivery in this account and environment (one of the other environment included)",
    message: TIMER_NOT_FOUND.message,
  },
  idempotency_conflict: {
    when: "the Idempotency-Key was already used with a different request",
    message: IDEMPOTENCY_CONFLICT.message,
  },
  revision_conflict: {
    when: "the If-Match revision is stale: read the timer again, then retry",
    message: STALE_REVISION.message,
    details: STALE_REVISION.details,
  },
  rate_limited: {
    when: "the per-minute request limit is spent; wait Retry-After seconds",
    message: "rate limit of 300 requests per minute exceeded; retry in 12 seconds",
  },
  quota_exhausted: {
    when: "the monthly new-timer allowance is spent until `details.resets_at`",
    message: QUOTA_EXHAUSTED.message,
    details: QUOTA_EXHAUSTED.details,
  },
  internal_error: {
    when: "an unexpected fault on the service side; retry with backoff",
    message: "an unexpected error occurred; retry with backoff",
  },
};

const EXAMPLE_REQUEST_ID = "6f1c2b9e-4d3a-4c55-9f0e-2b7d8a1e5c43";

/** The error cases every authenticated operation has. */
export const AUTH_ERRORS: ErrorCase[] = [
  { code: "unauthorized" },
  { code: "invalid_api_key" },
  { code: "forbidden" },
  { code: "suspended" },
  { code: "rate_limited" },
  { code: "internal_error" },
];

/**
 * The `responses` entries of an operation's errors, one per HTTP status. Each narrows the
 * error envelope's `code` to the codes that status can carry here, so a response with an
 * undocumented code fails validation, and shows one example per case.
 */
export function errorResponses(cases: ErrorCase[], authenticated: boolean) {
  const byStatus = new Map<number, ErrorCase[]>();
  for (const c of cases) {
    const list = byStatus.get(ERROR_STATUS[c.code]) ?? [];
    if (!list.some((x) => (x.name ?? x.code) === (c.name ?? c.code))) list.push(c);
    byStatus.set(ERROR_STATUS[c.code], list);
  }
  const out: Record<string, unknown> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const list = byStatus.get(status)!;
    const codes = [...new Set(list.map((c) => c.code))];
    out[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${GENERIC[code].when}.`).join(" "),
      headers: errorHeaders(status, codes, authenticated),
      content: {
        "application/json": {
          // Each level names what it narrows beside an allOf of the full shape, so validators
          // that treat unlisted properties as unevaluated still see every property.
          schema: {
            allOf: [schemaRef("ErrorResponse")],
            properties: {
              error: { allOf: [schemaRef("Error")], properties: { code: { enum: codes } } },
            },
          },
          examples: Object.fromEntries(list.map((c) => [c.name ?? c.code, example(c)])),
        },
      },
    };
  }
  return out;
}

function example(c: ErrorCase) {
  const generic = GENERIC[c.code];
  const details = c.details ?? (c.message ? undefined : generic.details);
  return {
    summary: c.name ? `${c.code}: ${c.name.replaceAll("_", " ")}` : c.code,
    value: {
      error: {
        code: c.code,
        message: c.message ?? generic.message,
        ...(details ? { details } : {}),
      },
      request_id: EXAMPLE_REQUEST_ID,
    },
  };
}

function errorHeaders(status: number, codes: ErrorCode[], authenticated: boolean) {
  const headers: Record<string, unknown> = {
    "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
  };
  // Failed authentication stops before the rate limit, so 401 never has RateLimit-*; other
  // errors have them once the key was accepted (suspended accounts never get that far).
  if (authenticated && status !== 401) {
    headers["RateLimit-Limit"] = { $ref: "#/components/headers/RateLimit-Limit-Optional" };
    headers["RateLimit-Remaining"] = {
      $ref: "#/components/headers/RateLimit-Remaining-Optional",
    };
    headers["RateLimit-Reset"] = { $ref: "#/components/headers/RateLimit-Reset-Optional" };
    headers["Tminus-Key-Expires-At"] = { $ref: "#/components/headers/Tminus-Key-Expires-At" };
  }
  if (codes.includes("rate_limited")) {
    headers["Retry-After"] = { $ref: "#/components/headers/Retry-After" };
  }
  return headers;
}
