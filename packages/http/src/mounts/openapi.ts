import { OPENAPI_PATH, openApiEndpoint } from "../openapi/serve";
import type { Mount } from "../pipeline/mount";
import { toErrorResponse } from "../pipeline/respond";

/**
 * The API description. Public (decisions.md): answered before authentication, so it costs no
 * rate-limit unit and leaves no request-log entry.
 */
export function openApiMount(onError: (error: unknown, requestId: string) => void): Mount {
  const openApi = openApiEndpoint();
  return {
    handles: (path) => path === OPENAPI_PATH,
    async handle(req, context) {
      if (req.method !== "GET" && req.method !== "HEAD") return null;
      context.outcome.route = OPENAPI_PATH;
      try {
        return openApi(context.baseUrl);
      } catch (error) {
        return toErrorResponse(error, context.requestId, onError);
      }
    },
  };
}
