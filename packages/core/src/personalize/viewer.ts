// From a public URL's query parameters to the viewer context of a personalized
// timer: which value the URL carries, whether it parses, whether it is signed.

import type { PersonalizedTimerDefinition } from "../schema/timer";
import type { ViewerContext } from "../status/types";
import { parseOffsetDateTime } from "../time/offset-date-time";
import { verifyPersonalizedParams } from "./sign";

/** Why a URL's personalization was not used (the timer then shows its fallback). */
export type PersonalizedViewerReason =
  | "missing" // the URL has no `deadline` / `start`
  | "malformed" // not a date-time with offset nor Unix seconds, or outside the years 0000..9999
  | "unsigned" // require_signature and no `sig`
  | "no_secret" // require_signature but the timer has no secret to check with
  | "bad_signature"; // `sig` does not match: edited or signed with another secret

/** A {@link ViewerContext} from a URL, with whether it may be used and, if not, why. */
export type PersonalizedViewer = ViewerContext & {
  valid: boolean;
  reason?: PersonalizedViewerReason;
};

// The range formatInstant writes as four-digit years; values outside cannot be
// shown back to anyone and are certainly not meant.
const MIN_INSTANT = -62_167_219_200_000; // 0000-01-01T00:00:00Z
const MAX_INSTANT = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

/** Checks a `sig` as {@link verifyPersonalizedParams} does (same answer for every input). */
export type PersonalizedSignatureCheck = (
  secret: string,
  params: Readonly<Record<string, string>>,
  signature: string,
) => boolean;

/**
 * Reads a personalized timer's recipient value from URL query parameters:
 * `deadline` (source "deadline") or `start` (source "start"), each an ISO 8601
 * date-time with Z or offset, or whole Unix seconds; `sig` its signature.
 * Unsigned values are refused when the timer requires a signature; a present
 * but wrong `sig` is always refused. An invalid result carries no value.
 * `verify` is the signature check: the portable one by default; a server may pass one on
 * its platform's native HMAC (the pure-JS one is most of the cost of reading a signed URL).
 * @example resolvePersonalizedViewer(definition, { deadline: "2026-12-01T09:00:00Z", sig }, secret) // { valid: true, deadline_at: 1796115600000 }
 */
export function resolvePersonalizedViewer(
  definition: PersonalizedTimerDefinition,
  params: Readonly<Record<string, string>>,
  secret: string | null,
  verify: PersonalizedSignatureCheck = verifyPersonalizedParams,
): PersonalizedViewer {
  const { personalization } = definition;
  const name = personalization.source === "deadline" ? "deadline" : "start";
  const raw = params[name];
  if (raw === undefined || raw === "") return { valid: false, reason: "missing" };

  const sig = params["sig"];
  if (personalization.require_signature) {
    if (secret === null) return { valid: false, reason: "no_secret" };
    if (sig === undefined || sig === "") return { valid: false, reason: "unsigned" };
  }
  // A signature that is present but wrong means the URL was edited: refuse it
  // even when signatures are optional.
  if (sig !== undefined && sig !== "" && secret !== null && !verify(secret, params, sig)) {
    return { valid: false, reason: "bad_signature" };
  }

  const value = parseInstantParam(raw);
  if (value === null) return { valid: false, reason: "malformed" };
  return name === "deadline"
    ? { valid: true, deadline_at: value }
    : { valid: true, start_at: value };
}

/** An instant from a URL value: a date-time with Z or offset, or integer Unix seconds. */
function parseInstantParam(raw: string): number | null {
  let ms: number | null;
  if (/^-?\d{1,12}$/.test(raw)) {
    // Merge tags in email tools usually produce Unix seconds.
    ms = Number(raw) * 1000;
  } else {
    // An unencoded "+01:00" in a query string arrives decoded as " 01:00".
    // Stryker disable next-line Regex: equivalent, text after the offset fails parsing whether or not it was rewritten.
    ms = parseOffsetDateTime(raw.replace(/ (\d{2}(?::?\d{2})?)$/, "+$1"));
  }
  // Stryker disable next-line ConditionalExpression: equivalent, null compares false with both bounds and is returned as is.
  return ms === null || ms < MIN_INSTANT || ms > MAX_INSTANT ? null : ms;
}
