// Email images that a shared cache (a CDN, a reverse proxy, an image proxy) may keep for a
// moment, behind `render.shared_cache_seconds` (docs/deploy.md, "A CDN in front"). An image of a
// timer whose URL carries no recipient's parameters is the same picture for everyone who opens
// it within the same second, so a cache in front can answer a whole send from one request per
// second; anything one recipient's own is never stored by a shared cache.

import type { ApiRequest } from "../transport/exchange";

/** The URL parameters that make an image one recipient's own (present at all, valid or not). */
const RECIPIENT_PARAMS = ["r", "deadline", "start", "sig"] as const;

/** Whether the request names a recipient: a recipient id, a personal deadline or start, a signature. */
export function hasRecipientParams(req: ApiRequest): boolean {
  return RECIPIENT_PARAMS.some((name) => req.query.get(name) !== null);
}

/**
 * The headers of an image a shared cache may keep for `seconds`: `s-maxage` for caches (browsers
 * still ask each time, `max-age=0`), a `Date` of the second the first frame shows (so a cache
 * that ages by Date never keeps it past that second plus `seconds`), and nginx's own
 * `X-Accel-Expires` with the same instant, because nginx counts `s-maxage` from when it
 * received the answer in whole seconds, which keeps a frame up to a second longer. nginx drops
 * that header before the client; other caches ignore it.
 */
export function sharedImageHeaders(seconds: number, now: number): Record<string, string> {
  const second = Math.floor(now / 1000);
  return {
    "cache-control": `public, max-age=0, s-maxage=${seconds}`,
    date: new Date(second * 1000).toUTCString(),
    // nginx keeps a copy while its clock's second is at most this one.
    "x-accel-expires": `@${second + seconds - 1}`,
  };
}

/**
 * An image that only its recipient sees (a recipient id, a personal deadline, a test send), when
 * sharing is on: no shared cache may store it, and the recipient's own client asks each time.
 */
export const PRIVATE_IMAGE_CACHE_CONTROL = "private, no-cache, max-age=0";
