import { JSON_HEADERS } from "../envelope";
import type { Mount } from "../pipeline/mount";
import { OverloadedError, overloadedResponse } from "../public/load-shedding";
import { RenderMissingError } from "../public/render-module";
import type { createPublicRoutes } from "../public/routes";
import { isPublicPath, publicRouteTemplate } from "../public/urls";
import type { ApiResponse } from "../transport/exchange";

type PublicRoutes = ReturnType<typeof createPublicRoutes>;

/**
 * The error code of the public routes when `@tminus/render` is not installed. Outside
 * `/api/v1`, so not one of the specification's codes.
 */
export const RENDER_UNAVAILABLE = "render_unavailable";

/** The public render routes: no key, not metered, never in the request log. */
export function publicMount(
  routes: PublicRoutes,
  onError: (error: unknown, requestId: string) => void,
): Mount {
  let renderMissingReported = false;
  return {
    handles: isPublicPath,
    async handle(req, context) {
      context.outcome.route = publicRouteTemplate(req.path);
      try {
        return await routes(req, context.now, context.baseUrl);
      } catch (error) {
        if (error instanceof RenderMissingError) {
          // A deployment choice, not a fault: said once, and the API keeps answering.
          if (!renderMissingReported) onError(error, context.requestId);
          renderMissingReported = true;
          return renderMissing(error, context.requestId);
        }
        if (error instanceof OverloadedError) return overloadedResponse(error, context.requestId);
        onError(error, context.requestId);
        return {
          status: 500,
          headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
          body: "The countdown could not be shown right now.",
        };
      }
    },
    close: () => routes.close(),
  };
}

/**
 * `503` when `@tminus/render` is not installed, in the error envelope: the public pages and
 * images cannot be drawn, and the message says how to fix it.
 */
function renderMissing(error: RenderMissingError, requestId: string): ApiResponse {
  return {
    status: 503,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify({
      error: { code: RENDER_UNAVAILABLE, message: error.message },
      request_id: requestId,
    }),
  };
}
