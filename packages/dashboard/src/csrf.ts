import type { ApiRequest } from "@tminus/http";
import { equalSecrets, sha256Hex } from "./secrets";

/** The form field and header that carry the CSRF token. */
export const CSRF_FIELD = "_csrf";
export const CSRF_HEADER = "x-csrf-token";

/**
 * The CSRF token of a session (or of a pre-session form cookie): derived from the cookie's
 * secret value, so it needs no storage, differs per session, and cannot be computed by a page
 * that cannot read the HttpOnly cookie. A synchronizer token without a table.
 */
export function csrfTokenFor(cookieValue: string): string {
  return sha256Hex(`tminus-csrf:${cookieValue}`);
}

/**
 * Whether a state-changing request may proceed: its token (form field or header) matches the
 * cookie's, compared in constant time, and the browser says it comes from this origin
 * (`Origin`, else `Sec-Fetch-Site`). A browser that sends neither is an old one or not a
 * browser: the token alone then decides.
 */
export function csrfAllowed(
  req: ApiRequest,
  cookieValue: string | null,
  sent: string | null,
  allowedOrigins: readonly string[],
): boolean {
  if (!cookieValue || !sent) return false;
  const origin = req.header("origin");
  if (origin !== null && !allowedOrigins.includes(origin)) return false;
  const site = req.header("sec-fetch-site");
  if (origin === null && site !== null && site !== "same-origin" && site !== "none") return false;
  return equalSecrets(sent, csrfTokenFor(cookieValue));
}
