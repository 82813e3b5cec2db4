import type { ApiRequest } from "@tminus/http";

/** The session cookie: an opaque random value; the store keeps only its SHA-256. */
export const SESSION_COOKIE = "tminus_session";
/** The pre-session cookie of the sign-in and set-password forms (double-submit CSRF). */
export const FORM_COOKIE = "tminus_form";

/** The value of one cookie of the request, or null. */
export function readCookie(req: ApiRequest, name: string): string | null {
  const header = req.header("cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

/** Where a cookie is sent and whether only over https. */
export interface CookieScope {
  /** The dashboard's path under the mount prefix: the cookie goes nowhere else. */
  path: string;
  secure: boolean;
}

/**
 * A `Set-Cookie` value: HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site
 * posts), Secure behind https, scoped to the dashboard's path. `maxAgeSeconds` 0 deletes it.
 */
export function setCookie(
  name: string,
  value: string,
  scope: CookieScope,
  maxAgeSeconds: number,
): string {
  return [
    `${name}=${value}`,
    `Path=${scope.path}`,
    `Max-Age=${maxAgeSeconds}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(scope.secure ? ["Secure"] : []),
  ].join("; ");
}
