import type { ApiResponse } from "@tminus/http";

/**
 * What every dashboard response carries: never cached, never framed, no referrer to other
 * sites (links to set a password carry a token; same-origin keeps the Origin header on our
 * own form posts, which no-referrer would turn into "null"), and a policy that runs only the dashboard's own script and
 * style (blob: for the live preview image).
 */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
};

/** An HTML page. */
export function htmlResponse(status: number, body: string, cookie?: string): ApiResponse {
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    "content-type": "text/html; charset=utf-8",
  };
  if (cookie) headers["set-cookie"] = cookie;
  return { status, headers, body };
}

/** 303 See Other: after a form post, the browser fetches `location` with GET. */
export function redirect(location: string, cookie?: string): ApiResponse {
  const headers: Record<string, string> = { ...SECURITY_HEADERS, location };
  if (cookie) headers["set-cookie"] = cookie;
  return { status: 303, headers, body: "" };
}

/** A JSON answer for the client script (the preview's errors). */
export function jsonResponse(status: number, value: unknown): ApiResponse {
  return {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": "application/json; charset=utf-8" },
    body: JSON.stringify(value),
  };
}
