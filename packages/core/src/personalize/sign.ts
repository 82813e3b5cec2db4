// Signed recipient URLs. A sender puts each recipient's `deadline` (or `start`)
// in the timer's public URL together with `sig`, an HMAC-SHA256 under the
// timer's secret, so a recipient who edits the value gets the fallback instead.

import { base64url, hmacSha256, timingSafeEqual } from "./hmac";

/**
 * The URL parameters a signature covers, in name order (the canonical text lists them so;
 * a test keeps the order). Others are ignored, so link trackers that append utm_*
 * parameters do not break signatures.
 */
export const SIGNED_PARAM_NAMES: readonly string[] = ["deadline", "start"];

// Domain separation: a signature made for this purpose means nothing elsewhere.
const CONTEXT = "tminus-personalized-v1";

// The covered parameters present, sorted by name, each value as `encode` writes it.
function canonical(
  params: Readonly<Record<string, string>>,
  encode: (value: string) => string,
): string {
  // SIGNED_PARAM_NAMES is already in name order: sorting it here would change nothing.
  const pairs = SIGNED_PARAM_NAMES.filter((name) => typeof params[name] === "string")
    // A space in a value is read as `+`: decoding a query string turns an unencoded
    // `+01:00` offset into ` 01:00`, and no valid value holds a space.
    .map((name) => `${name}=${encode(params[name]!.replaceAll(" ", "+"))}`);
  return `${CONTEXT}\n${pairs.join("&")}`;
}

/**
 * The exact text that is signed: `tminus-personalized-v1`, a newline, then the
 * covered parameters present, sorted by name, as `name=value` pairs joined by `&`, each
 * value as the recipient's platform stored it (the query value percent-decoded once):
 * `deadline=2026-12-01T09:00:00Z`. So any HMAC recipe over the raw value works. A space
 * in a value is read as `+` (an unencoded `+01:00` offset arrives as ` 01:00`).
 */
export function canonicalPersonalizedParams(params: Readonly<Record<string, string>>): string {
  return canonical(params, (value) => value);
}

/**
 * The text signatures were made over before 0.2: the same, with each value
 * percent-encoded (`deadline=2026-12-01T09%3A00%3A00Z`). Still accepted, so links
 * already sent keep working; new signatures use {@link canonicalPersonalizedParams}.
 */
export function legacyCanonicalPersonalizedParams(
  params: Readonly<Record<string, string>>,
): string {
  return canonical(params, encodeURIComponent);
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

/**
 * Whether `signature` is the valid `sig` for `params` under `secret`, compared in constant
 * time: a signature over the raw values, or one over their percent-encoded form (links
 * signed before 0.2).
 */
export function verifyPersonalizedParams(
  secret: string,
  params: Readonly<Record<string, string>>,
  signature: string,
): boolean {
  // Values that percent-encoding leaves alone (Unix seconds) have one form only: the set
  // checks it once. (A test `legacy === canonical` that only skipped a second HMAC could be
  // dropped with no answer changing.)
  const texts = new Set([
    canonicalPersonalizedParams(params),
    legacyCanonicalPersonalizedParams(params),
  ]);
  for (const text of texts) {
    if (timingSafeEqual(base64url(hmacSha256(secret, text)), signature)) return true;
  }
  return false;
}
