import type { ApiResponse } from "../transport/exchange";
import { buildOpenApiDocument } from "./document";

/**
 * Where the document is served, without a key: beside `/api/v1`, not under it, since every
 * path under `/api/v1` needs a key (specification, Endpoints).
 */
export const OPENAPI_PATH = "/openapi.json";

/**
 * The `GET /openapi.json` responder. The document depends only on the code and the base URL
 * its server entry names (the configured `base_url`, or the request's): it is built once and
 * its text kept, per base URL, so the rest is free.
 */
export function openApiEndpoint(): (baseUrl: string) => ApiResponse {
  const texts = new Map<string, string>();
  return (baseUrl) => {
    let body = texts.get(baseUrl);
    if (body === undefined) {
      body = JSON.stringify(buildOpenApiDocument({ baseUrl }));
      // A handful of hosts in practice; a flood of Host headers must not grow it forever.
      if (texts.size >= 64) texts.clear();
      texts.set(baseUrl, body);
    }
    return {
      status: 200,
      headers: {
        "content-type": "application/json; charset=utf-8",
        // Public and identical for every caller of one host; it changes with a deployment.
        "cache-control": "public, max-age=300",
      },
      body,
    };
  };
}
