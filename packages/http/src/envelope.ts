const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Headers of every JSON response of /api/v1. */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  "content-type": JSON_CONTENT_TYPE,
  "cache-control": "no-store",
};

/**
 * A fresh, mutable set of {@link JSON_HEADERS} plus a route's own. Built as one literal: every
 * API response adds its request id and rate-limit headers to it.
 */
export function jsonHeaders(extra?: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": JSON_CONTENT_TYPE,
    "cache-control": "no-store",
  };
  return extra === undefined ? headers : Object.assign(headers, extra);
}

/** The single-object success envelope as text. */
export function dataEnvelope(data: unknown, requestId: string): string {
  return JSON.stringify({ data, request_id: requestId });
}
