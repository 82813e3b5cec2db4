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
 * The headers of an image a shared cache may keep for `seconds` from `sentAt`, the moment the
 * answer is ready: `s-maxage` for caches (browsers still ask each time, `max-age=0`), and
 * nginx's own `X-Accel-Expires` with the end of that many seconds counted in whole seconds from
 * `sentAt`'s, because nginx counts `s-maxage` from the second it received the answer plus the
 * whole of the next, which keeps a frame up to a second longer. Counted from the answer, not
 * from the request: an image that took long to draw is still worth keeping (counted from the
 * request, a slow second would make every copy stale on arrival and send every open through).
 * nginx drops the header before the client; other caches ignore it.
 */
export function sharedImageHeaders(seconds: number, sentAt: number): Record<string, string> {
  return {
    "cache-control": `public, max-age=0, s-maxage=${seconds}`,
    // nginx keeps a copy while its clock's second is at most this one.
    "x-accel-expires": `@${Math.floor(sentAt / 1000) + seconds - 1}`,
  };
}

/**
 * An image that only its recipient sees (a recipient id, a personal deadline, a test send), when
 * sharing is on: no shared cache may store it, and the recipient's own client asks each time.
 */
export const PRIVATE_IMAGE_CACHE_CONTROL = "private, no-cache, max-age=0";
