// Error cases that several operations document, each with a message the service really sends.
import type { ErrorCase } from "./error-responses";

export type { ErrorCase };

/** If-Match absent on a change. */
export const MISSING_IF_MATCH: ErrorCase = {
  code: "missing_field",
  name: "missing_if_match",
  message:
    "If-Match header is required on changes: send the timer's revision (its ETag) from your last read",
  details: { field: "If-Match" },
};

/** If-Match that is not one revision. */
export const BAD_IF_MATCH: ErrorCase = {
  code: "validation_error",
  name: "malformed_if_match",
  message:
    'If-Match must carry one revision as returned in the ETag header or the revision field, e.g. "r3" (weak tags and * are not accepted)',
  details: { field: "If-Match" },
};

/** A stale If-Match. */
export const STALE_REVISION: ErrorCase = { code: "revision_conflict" };

/** A body that is not JSON. */
export const BODY_NOT_JSON: ErrorCase = {
  code: "validation_error",
  name: "body_not_json",
  message: "request body is not valid JSON: Unexpected token n in JSON at position 1",
  details: { field: "body" },
};

/** The new-timer allowance is spent. */
export const QUOTA_EXHAUSTED: ErrorCase = { code: "quota_exhausted" };

/** The Idempotency-Key was used with another request. */
export const IDEMPOTENCY_CONFLICT: ErrorCase = { code: "idempotency_conflict" };

/** A timer time zone that is not canonical. */
export const INVALID_TIMEZONE: ErrorCase = {
  code: "invalid_timezone",
  message:
    "timezone must be a canonical IANA time zone like Europe/Berlin (see GET /timezones); did you mean Europe/Berlin?",
  details: { field: "timezone" },
};

/** A webhook URL that is not https. */
export const URL_NOT_HTTPS: ErrorCase = {
  code: "validation_error",
  name: "url_not_https",
  message: "url must use https (this service does not send webhooks over plain http)",
  details: { field: "url" },
};

/** A webhook URL on a refused address. */
export const URL_PRIVATE: ErrorCase = {
  code: "validation_error",
  name: "url_private_address",
  message: "url points to a loopback address, which cannot receive webhooks",
  details: { field: "url" },
};
