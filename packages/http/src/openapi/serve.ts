import type { ApiResponse } from "../exchange";
import { buildOpenApiDocument } from "./document";

/** Where the document is served, without a key. */
export const OPENAPI_PATH = "/api/v1/openapi.json";

/**
 * The `GET /api/v1/openapi.json` responder. The document is built on the first request and
 * its text kept: it depends only on the code and `base_url`, never on the request.
 */
export function openApiEndpoint(baseUrl: string): () => ApiResponse {
  let body: string | undefined;
  return () => {
    body ??= JSON.stringify(buildOpenApiDocument({ baseUrl }));
    return {
      status: 200,
      headers: {
        "content-type": "application/json; charset=utf-8",
        // Public and identical for every caller; it changes only with a deployment.
        "cache-control": "public, max-age=300",
      },
      body,
    };
  };
}
