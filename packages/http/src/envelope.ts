/** Headers of every JSON response of /api/v1. */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
};

/** The single-object success envelope as text. */
export function dataEnvelope(data: unknown, requestId: string): string {
  return JSON.stringify({ data, request_id: requestId });
}
