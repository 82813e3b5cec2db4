import { NOT_READY } from "../observability/health";

/** The probes' operations are served at the root, not under `/api/v1`: their own `servers`. */
type Server = { url: string; description: string; variables?: Record<string, unknown> };

const REQUEST_ID = {
  type: "string",
  format: "uuid",
  description: "Equal to the X-Request-Id header.",
};
const EXAMPLE_ID = "01a21a7f-67d9-7580-9dbd-661a101a4a0d";

function okResponse(status: "ok" | "ready", description: string) {
  return {
    description,
    headers: { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } },
    content: {
      "application/json": {
        schema: {
          type: "object",
          additionalProperties: false,
          required: ["data", "request_id"],
          properties: {
            data: {
              type: "object",
              additionalProperties: false,
              required: ["status"],
              properties: { status: { const: status } },
            },
            request_id: REQUEST_ID,
          },
        },
        example: { data: { status }, request_id: EXAMPLE_ID },
      },
    },
  };
}

const NOT_READY_RESPONSE = {
  description:
    "Not ready: the database does not answer (within 2 s), its schema is not the version this code needs, or a shutdown has started. Take the process out of the load balancer; it is still alive.",
  headers: {
    "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
    "Retry-After": {
      description: "Seconds before probing again is useful.",
      schema: { type: "integer", minimum: 1 },
    },
  },
  content: {
    "application/json": {
      schema: {
        type: "object",
        additionalProperties: false,
        required: ["error", "request_id"],
        properties: {
          error: {
            type: "object",
            additionalProperties: false,
            required: ["code", "message", "details"],
            properties: {
              code: { const: NOT_READY },
              message: { type: "string" },
              details: {
                type: "object",
                additionalProperties: false,
                required: ["reason"],
                properties: {
                  reason: { enum: ["store_unavailable", "schema_mismatch", "shutting_down"] },
                },
              },
            },
          },
          request_id: REQUEST_ID,
        },
      },
      example: {
        error: {
          code: NOT_READY,
          message: "the database does not answer",
          details: { reason: "store_unavailable" },
        },
        request_id: EXAMPLE_ID,
      },
    },
  },
};

/**
 * The liveness and readiness probes, at the service's root (their paths are the defaults of
 * the `health` option; a handler mounted under a prefix answers them under it). No key, not
 * metered, not rate limited.
 */
export function healthPaths(root: Server): Record<string, Record<string, unknown>> {
  const common = { tags: ["Health"], security: [] };
  return {
    "/healthz": {
      servers: [root],
      get: {
        operationId: "getLiveness",
        summary: "Liveness probe",
        description:
          "200 while the process answers at all; it never asks the database. A failing liveness probe means: restart the process. No key, never metered or rate limited.",
        ...common,
        responses: { "200": okResponse("ok", "The process is alive.") },
      },
    },
    "/readyz": {
      servers: [root],
      get: {
        operationId: "getReadiness",
        summary: "Readiness probe",
        description:
          "200 while the database answers with the schema version this code needs; 503 when it does not, and from the moment a shutdown starts (so a load balancer stops sending before the listener closes). No key, never metered or rate limited.",
        ...common,
        responses: {
          "200": okResponse("ready", "Ready for traffic."),
          "503": NOT_READY_RESPONSE,
        },
      },
    },
  };
}
