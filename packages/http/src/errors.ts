/**
 * The specification's error codes and their HTTP statuses (countdown-api-v1.md, Errors).
 * The code is fixed in meaning within v1; the message may be reworded.
 */
export const ERROR_STATUS = {
  unauthorized: 401,
  invalid_api_key: 401,
  forbidden: 403,
  suspended: 403,
  missing_field: 400,
  validation_error: 400,
  invalid_timer_id: 400,
  invalid_timezone: 400,
  not_found: 404,
  idempotency_conflict: 409,
  revision_conflict: 409,
  rate_limited: 429,
  quota_exhausted: 429,
  internal_error: 500,
} as const;

/** Every error code a client can receive. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** An expected failure: becomes the error envelope with its code and status. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** A `validation_error` naming the offending field in the message and in `details.field`. */
export function validationError(field: string, message: string): ApiError {
  return new ApiError("validation_error", message, { details: { field } });
}
