import { validationError } from "./errors";
import type { ApiRequest } from "./exchange";

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
    throw validationError("body", `request body is not valid JSON: ${(err as Error).message}`);
  }
}
