// The documented failures of the API, each message written once: the handlers throw these
// values and the OpenAPI document shows them (with realistic example arguments).
import { ApiError, type ErrorCode } from "../errors";

/** One way an operation can fail: a code, and optionally the example to show for it. */
export interface ErrorCase {
  code: ErrorCode;
  /** A realistic message; the code's generic example when absent. */
  message?: string;
  details?: Record<string, unknown>;
  /** Distinguishes several cases of one code in the examples, e.g. `missing_if_match`. */
  name?: string;
}

/** What a documented failure tells: its message, and `details` when it has any. */
type Told = string | { message: string; details?: Record<string, unknown> };

/**
 * A documented failure. Handlers `throw X.error(...args)`; the document lists `X`, whose
 * message and details are the same function applied to the example arguments.
 * @example
 * throw TIMER_NOT_FOUND.error(id, ctx.auth.key.environment);
 */
export class DocumentedError<A extends unknown[] = []> implements ErrorCase {
  readonly code: ErrorCode;
  readonly name: string | undefined;
  readonly message: string;
  readonly details: Record<string, unknown> | undefined;
  /** The arguments the document's example is told with. */
  readonly example: A;
  readonly #tell: (...args: A) => Told;

  constructor(code: ErrorCode, tell: (...args: A) => Told, options: { example: A; name?: string }) {
    this.code = code;
    this.name = options.name;
    this.#tell = tell;
    this.example = options.example;
    const told = unpack(tell(...options.example));
    this.message = told.message;
    this.details = told.details;
  }

  /** The case as the document shows it for other example arguments (one per operation). */
  case(...args: A): ErrorCase {
    return {
      code: this.code,
      ...(this.name ? { name: this.name } : {}),
      ...unpack(this.#tell(...args)),
    };
  }

  /** The error to throw for these arguments. */
  error(...args: A): ApiError {
    const { message, details } = unpack(this.#tell(...args));
    return new ApiError(this.code, message, details ? { details } : {});
  }
}

function unpack(told: Told): { message: string; details?: Record<string, unknown> } {
  return typeof told === "string" ? { message: told } : told;
}

/** The id the examples use for a resource that does not exist. */
export const EXAMPLE_ID = "0b6c3c1e-3f0a-4d5e-9a43-8f1b2c3d4e5f";

/** A documented failure with one fixed message, naming `field` in `details.field`. */
export function fieldError(code: ErrorCode, name: string, field: string, message: string) {
  return new DocumentedError(code, () => ({ message, details: { field } }), { example: [], name });
}

/** A failure naming `field`, told by `message`. */
const invalidField =
  <A extends unknown[]>(field: string, message: (...args: A) => string) =>
  (...args: A) => ({ message: message(...args), details: { field } });

/** A timer id in the path that is not a UUID. */
export const INVALID_TIMER_ID = new DocumentedError(
  "invalid_timer_id",
  (raw: string) => `timer id "${raw.slice(0, 64)}" is not a UUID`,
  { example: ["abc"] },
);

/** No timer with this id in the key's account and environment (or in the other one). */
export const TIMER_NOT_FOUND = new DocumentedError(
  "not_found",
  (id: string, environment: string) => `no timer ${id} in this ${environment} account`,
  { example: [EXAMPLE_ID, "production"] },
);

/** If-Match absent on a change. */
export const MISSING_IF_MATCH = fieldError(
  "missing_field",
  "missing_if_match",
  "If-Match",
  "If-Match header is required on changes: send the timer's revision (its ETag) from your last read",
);

/** If-Match that is not one revision. */
export const BAD_IF_MATCH = fieldError(
  "validation_error",
  "malformed_if_match",
  "If-Match",
  'If-Match must carry one revision as returned in the ETag header or the revision field, e.g. "r3" (weak tags and * are not accepted)',
);

/** A stale If-Match. */
export const STALE_REVISION = new DocumentedError(
  "revision_conflict",
  (expected: number, current: number) => ({
    message: `the timer changed since revision r${expected}: read it again (current revision r${current}) and retry`,
    details: { current_revision: `r${current}` },
  }),
  { example: [3, 4] },
);

/** A body that is not JSON. */
export const BODY_NOT_JSON = new DocumentedError(
  "validation_error",
  invalidField("body", (reason: string) => `request body is not valid JSON: ${reason}`),
  { example: ["Unexpected token n in JSON at position 1"], name: "body_not_json" },
);

/** Idempotency-Key absent on POST /timers. */
export const MISSING_IDEMPOTENCY_KEY = fieldError(
  "missing_field",
  "missing_idempotency_key",
  "Idempotency-Key",
  "Idempotency-Key header is required on POST /timers; send a unique key per new timer",
);

/** The new-timer allowance is spent. */
export const QUOTA_EXHAUSTED = new DocumentedError(
  "quota_exhausted",
  (limit: number, used: number, resetsAt: string) => ({
    message: `the monthly allowance of ${limit} new timers is spent; it resets at ${resetsAt}`,
    details: { metric: "new_timers", limit, used, resets_at: resetsAt },
  }),
  { example: [1000, 1000, "2026-12-01T00:00:00.000Z"] },
);

/** The Idempotency-Key was used with another request. */
export const IDEMPOTENCY_CONFLICT = new DocumentedError(
  "idempotency_conflict",
  () =>
    "this Idempotency-Key was already used with a different request; use a new key for a new request",
  { example: [] },
);

/** A timer time zone that is not canonical (core's validation tells it). */
export const INVALID_TIMEZONE: ErrorCase = {
  code: "invalid_timezone",
  message:
    "timezone must be a canonical IANA time zone like Europe/Berlin (see GET /timezones); did you mean America/New_York? EST (Eastern Standard Time) is an abbreviation, not a zone: it names a clock for part of the year. A zone follows a place through its daylight saving changes, as America/New_York follows New York.",
  details: { field: "timezone", suggestions: ["America/New_York"] },
};

/** A webhook URL that is not https. */
export const URL_NOT_HTTPS = fieldError(
  "validation_error",
  "url_not_https",
  "url",
  "url must use https (this service does not send webhooks over plain http)",
);

/** A webhook URL on a refused address (`reason`: loopback, private, link-local...). */
export const URL_PRIVATE = new DocumentedError(
  "validation_error",
  invalidField(
    "url",
    (reason: string) => `url points to a ${reason} address, which cannot receive webhooks`,
  ),
  { example: ["loopback"], name: "url_private_address" },
);

/** The errors of a webhook resource's id in the path: not a UUID, and unknown. */
function webhookIdErrors(name: string, resource: string) {
  return {
    invalid: new DocumentedError(
      "validation_error",
      invalidField(name, (raw: string) => `${name} "${raw.slice(0, 64)}" is not a UUID`),
      { example: ["abc"], name: `invalid_${name}` },
    ),
    notFound: new DocumentedError(
      "not_found",
      // `where`: "in this production account", or "on timer <id>" for a timer's rule.
      (id: string, where: string) => `no ${resource} ${id} ${where}`,
      {
        example: [EXAMPLE_ID, "in this production account"],
        name: `${name.replace(/_id$/, "")}_not_found`,
      },
    ),
  };
}

/** The path parameters `destination_id`, `rule_id` and `delivery_id`: not a UUID, unknown. */
export const DESTINATION_ID_ERRORS = webhookIdErrors("destination_id", "webhook destination");
export const RULE_ID_ERRORS = webhookIdErrors("rule_id", "webhook rule");
export const DELIVERY_ID_ERRORS = webhookIdErrors("delivery_id", "webhook delivery");
/** The path parameter `asset_id` of the upload routes: not a UUID, unknown. */
export const ASSET_ID_ERRORS = webhookIdErrors("asset_id", "uploaded file");
