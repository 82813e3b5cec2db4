// The links that follow the timer: `GET /t/{id}/go` and the ended email image's redirect.
// Both only ever send a client to an address the timer's owner stored (validated as https by
// core's schema) or to our own hosted page: never to anything the request carries, so neither
// is an open redirect.
import type { TimerDefinition, TimerStatusResult } from "@tminus/core";
import type { ApiRequest, ApiResponse } from "../transport/exchange";

/**
 * The parameters `/go` passes on to the hosted page, so the page counts like the email's
 * image: a duration timer's `r`, a personalized timer's `deadline`/`start`/`sig`, and the
 * send's campaign label (`c`, `utm_campaign`), so the page's view lands in the click's campaign.
 */
const PASSED_PARAMS = ["r", "deadline", "start", "sig", "c", "utm_campaign"] as const;

/**
 * The hosted page of a timer with the request's recipient and campaign parameters (and nothing
 * else from the query): the default target of every `/go` state.
 */
export function hostedPageFor(req: ApiRequest, pageUrl: string): string {
  const query = new URLSearchParams();
  for (const name of PASSED_PARAMS) {
    const value = req.query.get(name);
    if (value !== null) query.set(name, value);
  }
  const text = query.toString();
  return text === "" ? pageUrl : `${pageUrl}?${text}`;
}

/**
 * Where `/go` sends this recipient at this moment: `look.not_started_click_url` before their
 * countdown starts, `look.click_url` while it runs or is paused, `ended.click_url` once it
 * ended; each one not set falls back to `page` (the hosted page).
 */
export function clickTarget(
  definition: Pick<TimerDefinition, "look" | "ended">,
  status: Pick<TimerStatusResult, "state">,
  page: string,
): string {
  // Looks stored before the click URLs existed lack the fields: `?? page` covers them too.
  if (status.state === "ended") return definition.ended.click_url ?? page;
  if (status.state === "not_started") return definition.look.not_started_click_url ?? page;
  return definition.look.click_url ?? page;
}

/**
 * A `302` to `location` that no cache keeps: the same link leads elsewhere once the timer's
 * state changes (an extension or the next occurrence can make an ended timer run again).
 */
export function redirectTo(location: string): ApiResponse {
  // Core stores these URLs as the WHATWG parser writes them (plain ASCII), but timers saved
  // before it did keep the owner's text (spaces, non-ASCII): serialized again here, no
  // stored text can break the header.
  const href = new URL(location).href;
  return {
    status: 302,
    headers: {
      location: href,
      "cache-control": "no-store",
      // The recipient's `r` or deadline in our URL is nobody else's business.
      "referrer-policy": "no-referrer",
      "content-type": "text/plain; charset=utf-8",
    },
    body: `Redirecting to ${href}`,
  };
}

/**
 * The email image of an ended timer whose `ended.image_url` is set: a `302` to that picture,
 * so the email shows the owner's own "offer ended" image; null when the image is drawn.
 */
export function endedImageRedirect(
  definition: Pick<TimerDefinition, "ended">,
  status: Pick<TimerStatusResult, "ended">,
): ApiResponse | null {
  const image = definition.ended.image_url;
  return status.ended && image !== undefined ? redirectTo(image) : null;
}
