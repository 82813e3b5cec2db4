import { API_PREFIX } from "../api/context";
import { setRateLimitHeaders } from "../guards/rate-limit";
import type { InvokeRoute, RouteTrace } from "../pipeline/invoke-route";
import type { Mount } from "../pipeline/mount";
import { toErrorResponse, toResponse } from "../pipeline/respond";
import type { ApiRequest, ApiResponse } from "../transport/exchange";

// Built once: a template literal in the check would be built again on every request.
const UNDER_API = `${API_PREFIX}/`;

/** Response header of requests made with a rolled key: when the key stops working. */
export const KEY_EXPIRES_HEADER = "tminus-key-expires-at";

/** The route label of a request no route took (a 404, or a path outside the mount). */
export const UNMATCHED_ROUTE = "unmatched";

/** What the API mount needs besides the pipeline. */
export interface ApiMountOptions {
  invokeRoute: InvokeRoute;
  /** The template a request would match, for the label of one refused before routing. */
  templateOf(req: ApiRequest): string | null;
  onError(error: unknown, requestId: string): void;
  /** Whether route labels are wanted (metrics or a logger). */
  labels: boolean;
  /** Called after every answer (housekeeping). */
  afterResponse(now: number): void;
}

/** `/api/v1`: the key's requests through the pipeline, answered in the envelope. */
export function apiMount(options: ApiMountOptions): Mount {
  return {
    handles: (path) => path === API_PREFIX || path.startsWith(UNDER_API),
    handle: async (req, context) => {
      const { requestId } = context;
      const trace: RouteTrace = {};
      let response: ApiResponse;
      try {
        const result = await options.invokeRoute({
          req,
          now: context.now,
          requestId,
          baseUrl: context.baseUrl,
          started: context.started,
          trace,
        });
        response = toResponse(result, requestId);
      } catch (error) {
        response = toErrorResponse(error, requestId, options.onError);
      }
      context.outcome.auth = trace.auth;
      // Refused before routing (no key, rate limited): labelled by the route it asked for.
      if (trace.template) context.outcome.route = trace.template;
      else if (options.labels) context.outcome.route = options.templateOf(req) ?? UNMATCHED_ROUTE;
      if (trace.rate) setRateLimitHeaders(response.headers, trace.rate);
      // A rolled key says on every answer when it stops working, so its holder notices in time.
      if (trace.auth?.key.expires_at != null) {
        response.headers[KEY_EXPIRES_HEADER] = new Date(trace.auth.key.expires_at).toISOString();
      }
      options.afterResponse(context.now);
      return response;
    },
  };
}
