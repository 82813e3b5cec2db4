import { isPlainObject, toValidationIssues } from "@tminus/core";
import type { z } from "zod";
import { ApiError, validationError } from "../errors";

/**
 * Parses a request body with its zod schema; the first issue becomes the specification's
 * error (`missing_field` or `validation_error`, `details.field` naming the field).
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  if (!isPlainObject(body)) throw validationError("body", "the body must be a JSON object");
  // reportInput lets the issue mapper tell a missing field from a wrong one.
  const parsed = schema.safeParse(body, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = toValidationIssues(parsed.error.issues)[0]!;
  // invalid_timezone is for timer time zones; no webhook field is one.
  const code = issue.code === "invalid_timezone" ? "validation_error" : issue.code;
  throw new ApiError(code, issue.message, { details: { field: issue.field } });
}
