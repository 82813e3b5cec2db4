import { isPlainObject, toValidationIssues } from "@tminus/core";
import type { z } from "zod";
import { ApiError, validationError } from "../errors";
import type { ApiRequest } from "../transport/exchange";
import { BODY_NOT_JSON } from "../vocabulary/error-cases";
import type { BodySpec } from "./define";

/**
 * Reads a JSON request body within the size limit. An empty body is `undefined` when
 * `optional`, otherwise a `validation_error` naming `body`, like a body that is not JSON.
 */
export async function readJsonBody(
  req: ApiRequest,
  maxBytes: number,
  options: { optional?: boolean } = {},
): Promise<unknown> {
  const text = await req.text(maxBytes);
  if (text.trim() === "") {
    if (options.optional) return undefined;
    throw validationError("body", "request body is required: send a JSON object");
  }
  const type = req.header("content-type");
  if (type !== null && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
    throw validationError("Content-Type", "Content-Type must be application/json");
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw BODY_NOT_JSON.error((err as Error).message);
  }
}

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
  // invalid_timezone is reserved for a timer's time zone; these schemas name none.
  const code = issue.code === "invalid_timezone" ? "validation_error" : issue.code;
  throw new ApiError(code, issue.message, { details: { field: issue.field } });
}

/** Reads and validates a route's body as its spec says (see `BodySpec`). */
export async function readRouteBody<B>(
  spec: BodySpec<B>,
  req: ApiRequest,
  maxBytes: number,
): Promise<B> {
  const json = await readJsonBody(req, maxBytes, { optional: !spec.required });
  if (json === undefined) return undefined as B;
  return spec.parse ? spec.parse(json) : (parseBody(spec.schema, json) as B);
}
