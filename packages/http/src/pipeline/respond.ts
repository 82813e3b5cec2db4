import type { RouteResult } from "../api/context";
import { dataEnvelope, JSON_HEADERS, jsonHeaders } from "../envelope";
import { ApiError } from "../errors";
import {
  type ApiRequest,
  type ApiResponse,
  BodyTooLargeError,
  IncompleteBodyError,
} from "../transport/exchange";

/** A route's result as the HTTP answer: `data` or a list in the envelope, or as it is. */
export function toResponse(result: RouteResult, requestId: string): ApiResponse {
  if ("raw" in result) return { ...result.raw, headers: { ...result.raw.headers } };
  if ("list" in result) {
    return {
      status: result.status ?? 200,
      headers: jsonHeaders(result.headers),
      body: JSON.stringify({ data: result.list, page: result.page, request_id: requestId }),
    };
  }
  return {
    status: result.status ?? 200,
    headers: jsonHeaders(result.headers),
    body: dataEnvelope(result.data, requestId),
  };
}

/**
 * The client fault a thrown value stands for, or null when it is none (an unexpected fault,
 * which the client only sees as `internal_error`).
 */
export function clientFaultOf(error: unknown): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error instanceof IncompleteBodyError) {
    return new ApiError("validation_error", error.message, { details: { field: "body" } });
  }
  if (error instanceof BodyTooLargeError) {
    return new ApiError(
      "validation_error",
      `request body exceeds the limit of ${error.limit} bytes`,
      {
        details: { field: "body" },
      },
    );
  }
  return null;
}

/** Maps any thrown value to the specification's error envelope; never leaks a stack trace. */
export function toErrorResponse(
  error: unknown,
  requestId: string,
  onError: (error: unknown, requestId: string) => void,
): ApiResponse {
  let apiError = clientFaultOf(error);
  if (apiError === null) {
    onError(error, requestId);
    apiError = new ApiError("internal_error", "an unexpected error occurred; retry with backoff");
  }
  const body: Record<string, unknown> = { code: apiError.code, message: apiError.message };
  if (apiError.details) body.details = apiError.details;
  return {
    status: apiError.status,
    headers: { ...JSON_HEADERS, ...apiError.headers },
    body: JSON.stringify({ error: body, request_id: requestId }),
  };
}

/**
 * A HEAD request is answered as its GET would be, without the body: the headers (the
 * Content-Length of the body included) tell a client or a proxy what it would get.
 */
export function withoutBodyForHead(req: ApiRequest, response: ApiResponse): ApiResponse {
  if (req.method !== "HEAD") return response;
  response.headers["content-length"] ??= String(
    typeof response.body === "string" ? Buffer.byteLength(response.body) : response.body.byteLength,
  );
  response.body = "";
  return response;
}

/**
 * Headers every response gets, whatever answered it: the request id, and `nosniff` so that no
 * browser reads a JSON error, an image or a script as anything but its declared type.
 */
export function stamp(response: ApiResponse, requestId: string): ApiResponse {
  response.headers["x-request-id"] = requestId;
  response.headers["x-content-type-options"] = "nosniff";
  return response;
}
