// What gives way when one process's event loop is overloaded. Email images never do (a 503 is
// a broken image for that open, forever: they degrade to a still instead), and the API never
// does (a status read costs some 30 us of the loop, about what refusing it would, and an
// integration that is refused retries). The hosted page and the embed do: each is a page of
// HTML built on the event loop, a person behind it can reload, and the embed's script retries.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { JSON_HEADERS } from "../envelope";
import type { ApiResponse } from "../transport/exchange";

/** The error code of a public page shed under load (outside `/api/v1`, like `render_unavailable`). */
export const OVERLOADED = "overloaded";

/** Seconds a shed page asks the client to wait (`Retry-After`). */
export const SHED_RETRY_AFTER_SECONDS = 2;

/** The window the delay is judged over: the last complete one decides until the next ends. */
const WINDOW_MS = 500;

/**
 * Public requests that must have arrived since the last window began for its delay to count: a
 * loop slowed by something else (a start, a module loaded, a test's own work) with little
 * traffic is no reason to refuse pages.
 */
export const SHED_MIN_REQUESTS = 50;

/** A public page was shed: the handler answers `503 overloaded` with `Retry-After`. */
export class OverloadedError extends Error {
  readonly retryAfterSeconds = SHED_RETRY_AFTER_SECONDS;
  constructor(delayMs: number) {
    super(
      `the server is overloaded (event-loop delay ${Math.round(delayMs)} ms); try again in ${SHED_RETRY_AFTER_SECONDS} s`,
    );
    this.name = "OverloadedError";
  }
}

/**
 * Watches the event loop's delay (sampled every 10 ms) and says when pages must give way: in the
 * last complete half second, the 90th percentile of the delays was above `thresholdMs`, and at
 * least {@link SHED_MIN_REQUESTS} public requests arrived since it began. Then most turns of the loop are
 * that long because of the traffic, and every request on this process, the API's included, waits
 * about as long; one long turn (a module loaded, a collection) is not enough. `thresholdMs` 0
 * never sheds.
 */
export function createLoadShedder(thresholdMs: number) {
  const counts = { shed: 0 };
  if (thresholdMs === 0) {
    return { seen: () => undefined, check: () => undefined, counts, close: () => undefined };
  }
  const delays = monitorEventLoopDelay({ resolution: 10 });
  delays.enable();
  let lastWindowMs = 0;
  let requests = 0;
  let lastWindowRequests = 0;
  const turn = setInterval(() => {
    lastWindowMs = delays.count > 0 ? delays.percentile(90) / 1e6 : 0;
    lastWindowRequests = requests;
    requests = 0;
    delays.reset();
  }, WINDOW_MS);
  turn.unref();
  return {
    /** Counts a public request (every one, images included): the traffic the delay is about. */
    seen(): void {
      requests++;
    },
    /** Throws `OverloadedError` while the loop is too slow for pages. */
    check(): void {
      const traffic = lastWindowRequests + requests;
      if (lastWindowMs <= thresholdMs || traffic < SHED_MIN_REQUESTS) return;
      counts.shed++;
      throw new OverloadedError(lastWindowMs);
    },
    /** Pages shed so far (for metrics). */
    counts,
    close(): void {
      clearInterval(turn);
      delays.disable();
    },
  };
}

/** `503 overloaded` in the error envelope, with `Retry-After`: a page shed under load. */
export function overloadedResponse(error: OverloadedError, requestId: string): ApiResponse {
  return {
    status: 503,
    headers: { ...JSON_HEADERS, "retry-after": String(error.retryAfterSeconds) },
    body: JSON.stringify({
      error: { code: OVERLOADED, message: error.message },
      request_id: requestId,
    }),
  };
}
