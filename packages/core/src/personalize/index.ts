// Public surface of recipient-URL personalization.
export { base64url, hmacSha256, timingSafeEqual } from "./hmac";
export { sha256 } from "./sha256";
export {
  canonicalPersonalizedParams,
  legacyCanonicalPersonalizedParams,
  SIGNED_PARAM_NAMES,
  signPersonalizedParams,
  verifyPersonalizedParams,
} from "./sign";
export {
  type PersonalizedSignatureCheck,
  type PersonalizedViewer,
  type PersonalizedViewerReason,
  resolvePersonalizedViewer,
} from "./viewer";
