// Signed recipient URLs. A sender puts each recipient's `deadline` (or `start`)
// in the timer's public URL together with `sig`, an HMAC-SHA256 under the
// timer's secret, so a recipient who edits the value gets the fallback instead.

import { base64url, hmacSha256, timingSafeEqual } from "./hmac";

/**
 * The URL parameters a signature covers. Others are ignored, so link trackers
 * that append utm_* parameters do not break signatures.
 */
export const SIGNED_PARAM_NAMES: readonly string[] = ["deadline", "start"];

// Domain separation: a signature made for this purpose means nothing elsewhere.
const CONTEXT = "tminus-personalized-v1";

/**
 * The exact text that is signed: `tminus-personalized-v1`, a newline, then the
 * covered parameters present, sorted by name, as `name=value` pairs (each part
 * percent-encoded) joined by `&`. A space in a value is read as `+`: decoding a
 * query string turns an unencoded `+01:00` offset into ` 01:00`.
 */
export function canonicalPersonalizedParams(params: Readonly<Record<string, string>>): string {
  // Stryker disable next-line MethodExpression: equivalent while SIGNED_PARAM_NAMES is listed in order; the sort keeps it true if a name is added.
  const pairs = SIGNED_PARAM_NAMES.filter((name) => typeof params[name] === "string")
    .slice()
    .sort()
    .map(
      (name) =>
        `${encodeURIComponent(name)}=${encodeURIComponent(params[name]!.replaceAll(" ", "+"))}`,
    );
  return `${CONTEXT}\n${pairs.join("&")}`;
}

/**
 * The `sig` value for a recipient's parameters: unpadded base64url HMAC-SHA256
 * of {@link canonicalPersonalizedParams} under the timer's `secret`.
 * @example
 * const sig = signPersonalizedParams(secret, { deadline: "2026-12-01T09:00:00Z" });
 * const url = `${timerUrl}?deadline=${encodeURIComponent("2026-12-01T09:00:00Z")}&sig=${sig}`;
 */
export function signPersonalizedParams(
  secret: string,
  params: Readonly<Record<string, string>>,
): string {
  return base64url(hmacSha256(secret, canonicalPersonalizedParams(params)));
}

/** Whether `signature` is the valid `sig` for `params` under `secret`, compared in constant time. */
export function verifyPersonalizedParams(
  secret: string,
  params: Readonly<Record<string, string>>,
  signature: string,
): boolean {
  return timingSafeEqual(signPersonalizedParams(secret, params), signature);
}
