import { createHmac, timingSafeEqual } from "node:crypto";
import {
  canonicalPersonalizedParams,
  legacyCanonicalPersonalizedParams,
  type PersonalizedSignatureCheck,
} from "@tminus/core";

/** Whether `signature` is the unpadded base64url HMAC-SHA256 of `text`, in constant time. */
function signs(secret: string, text: string, signature: string): boolean {
  const expected = createHmac("sha256", secret).update(text).digest("base64url");
  // The length of a valid `sig` is public (43 characters): only the content is compared in constant time.
  if (signature.length !== expected.length) return false;
  const given = Buffer.from(signature, "utf8");
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected, "utf8"));
}

/**
 * Core's check of a personalized URL's `sig` (HMAC-SHA256 of the raw values, or of their
 * percent-encoded form for links signed before 0.2, unpadded base64url, compared as text
 * in constant time) on node:crypto's native HMAC: every signed email image is checked, and
 * core's portable SHA-256 in JavaScript cost several times more. The expected text is
 * compared, not the decoded `sig`: base64url decoding skips stray characters, and a `sig`
 * core refuses must be refused here too.
 */
export const verifyPersonalizedSignature: PersonalizedSignatureCheck = (
  secret,
  params,
  signature,
) => {
  const raw = canonicalPersonalizedParams(params);
  if (signs(secret, raw, signature)) return true;
  const legacy = legacyCanonicalPersonalizedParams(params);
  return legacy !== raw && signs(secret, legacy, signature);
};
