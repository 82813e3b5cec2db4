import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@tminus/store";
import { DESCRIPTION_MAX, MAX_RULES_PER_TIMER, URL_MAX } from "../webhooks/schemas";
import { schemaRef } from "./components";
import type { ErrorCase } from "./error-responses";
import type { OperationSpec } from "./operations";

const bodyNotJson: ErrorCase = {
  code: "validation_error",
  name: "body_not_json",
  message: "request body is not valid JSON: Unexpected token n in JSON at position 1",
  details: { field: "body" },
};
const httpsOnly: ErrorCase = {
  code: "validation_error",
  name: "url_not_https",
  message: "url must use https (this service does not send webhooks over plain http)",
  details: { field: "url" },
};
const privateUrl: ErrorCase = {
  code: "validation_error",
  name: "url_private_address",
  message: "url points to a loopback address, which cannot receive webhooks",
  details: { field: "url" },
};

/**
 * The path parameters of the webhook routes: each id that is not a UUID is a
 * `validation_error` naming it (the specification's `invalid_timer_id` is for timer ids only).
 */
export const WEBHOOK_PATH_PARAMETERS = {
  destination_id: { component: "DestinationId", resource: "webhook destination" },
  rule_id: { component: "RuleId", resource: "webhook rule" },
  delivery_id: { component: "DeliveryId", resource: "webhook delivery" },
} as const;

/** Parameter components of the webhook path parameters. */
export const WEBHOOK_PARAMETER_COMPONENTS = Object.fromEntries(
  Object.entries(WEBHOOK_PATH_PARAMETERS).map(([name, p]) => [
    p.component,
    {
      name,
      in: "path",
      required: true,
      description: `The ${p.resource}'s id. A value that is not a UUID is \`400 validation_error\` naming \`${name}\`.`,
      schema: { type: "string", format: "uuid" },
    },
  ]),
);

/** The errors derived from a webhook path parameter: malformed id, unknown id. */
export function webhookPathErrors(path: string): { parameter: string; errors: ErrorCase[] }[] {
  return Object.entries(WEBHOOK_PATH_PARAMETERS)
    .filter(([name]) => path.includes(`{${name}}`))
    .map(([name, p]) => ({
      parameter: p.component,
      errors: [
        {
          code: "validation_error",
          name: `invalid_${name}`,
          message: `${name} "abc" is not a UUID`,
          details: { field: name },
        },
        {
          code: "not_found",
          name: `${name.replace(/_id$/, "")}_not_found`,
          message: `no ${p.resource} 0b6c3c1e-3f0a-4d5e-9a43-8f1b2c3d4e5f in this production account`,
        },
      ],
    }));
}

const SIGNING =
  "Every event is signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry and replay), `webhook-timestamp` (this attempt, Unix seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the base64-decoded part of the secret after `whsec_`; during 24 hours after a rotation one signature per secret, space-separated).";

/** The documentation of the webhook routes, merged into `OPERATIONS`. */
export const WEBHOOK_OPERATIONS: Record<string, OperationSpec> = {
  "POST /webhook-destinations": {
    operationId: "createWebhookDestination",
    summary: "Register a webhook destination",
    description: `Registers a receiver of events in the key's environment. The answer is the only place besides rotate-secret that shows the signing secret (\`whsec_…\`). ${SIGNING} The URL must be \`https://\` (the operator may allow \`http://\`), at most ${URL_MAX} characters, without credentials or fragment; loopback, private, link-local, unique-local, multicast, reserved, metadata and IPv4-mapped addresses are refused here when written as such, and at every attempt after DNS resolution, unless the operator allows private destinations. The number of destinations per environment is limited by the operator (\`webhooks.max_destinations\`, default 20).`,
    tag: "Webhooks",
    body: {
      schema: "WebhookDestinationCreate",
      required: true,
      description: "The receiver's URL, an optional description and optional change events.",
      example: {
        url: "https://api.example.com/webhooks/tminus",
        description: "Order service",
        events: ["timer.created"],
      },
    },
    success: {
      status: 201,
      schema: "WebhookDestinationSecretResponse",
      description: "The destination with its signing secret, shown once.",
    },
    errors: [
      { code: "missing_field", message: "url is required", details: { field: "url" } },
      httpsOnly,
      privateUrl,
      {
        code: "validation_error",
        name: "description_too_long",
        message: `description must be at most ${DESCRIPTION_MAX} characters long`,
        details: { field: "description" },
      },
      {
        code: "validation_error",
        name: "destination_limit",
        message:
          "this environment already has the maximum of 20 webhook destinations; delete one first",
        details: { field: "destinations", reason: "limit_reached", limit: 20 },
      },
      bodyNotJson,
    ],
  },
  "GET /webhook-destinations": {
    operationId: "listWebhookDestinations",
    summary: "List webhook destinations",
    description: "The environment's destinations, newest first. Secrets are never listed.",
    tag: "Webhooks",
    list: true,
    success: {
      status: 200,
      schema: "WebhookDestinationList",
      description: "A page of destinations.",
    },
  },
  "GET /webhook-destinations/{destination_id}": {
    operationId: "getWebhookDestination",
    summary: "Read a webhook destination",
    description: "One destination, without its secret.",
    tag: "Webhooks",
    success: { status: 200, schema: "WebhookDestinationResponse", description: "The destination." },
  },
  "PATCH /webhook-destinations/{destination_id}": {
    operationId: "updateWebhookDestination",
    summary: "Update a webhook destination",
    description:
      "Replaces the fields sent (`url`, `description`, `events`, `enabled`), validated as on create. Disabling stops new deliveries and fails pending ones at their next attempt; enabling clears `disabled_reason` (also after a 410).",
    tag: "Webhooks",
    body: {
      schema: "WebhookDestinationUpdate",
      required: true,
      description: "The fields to change.",
      example: { enabled: false },
    },
    success: {
      status: 200,
      schema: "WebhookDestinationResponse",
      description: "The updated destination.",
    },
    errors: [httpsOnly, privateUrl, bodyNotJson],
  },
  "DELETE /webhook-destinations/{destination_id}": {
    operationId: "deleteWebhookDestination",
    summary: "Delete a webhook destination",
    description:
      "Removes the destination and the rules that name it. Its deliveries stay listed; pending ones fail at their next attempt with `error: destination_deleted`.",
    tag: "Webhooks",
    success: {
      status: 200,
      schema: "DeletedWebhookDestinationResponse",
      description: "The id of the deleted destination.",
    },
  },
  "POST /webhook-destinations/{destination_id}/rotate-secret": {
    operationId: "rotateWebhookSecret",
    summary: "Rotate a destination's signing secret",
    description:
      "Creates a new secret and shows it once. For 24 hours the previous secret signs too (two space-separated `v1,` signatures), so receivers can switch without losing events; a second rotation within the window drops the oldest secret. Takes no body.",
    tag: "Webhooks",
    success: {
      status: 200,
      schema: "WebhookDestinationSecretResponse",
      description: "The destination with its new secret, shown once.",
    },
    errors: [bodyNotJson],
  },
  "POST /timers/{timer_id}/webhook-rules": {
    operationId: "createWebhookRule",
    summary: "Add a webhook rule to a timer",
    description: `Sends the listed event types of this timer to a destination of the same account and environment. \`timer.ended\` fires at the end (a fixed timer's deadline moved by pauses and extensions, a duration timer's end, a personalized timer's fallback deadline, each occurrence of a recurring timer); \`timer.threshold\` fires \`offset_seconds\` before it. Time-based events fire within 2 seconds while the service runs; those missed while it was down fire at once after a restart, each once. Ends before the rule's creation never fire, and archived timers fire nothing. At most ${MAX_RULES_PER_TIMER} rules per timer.`,
    tag: "Webhooks",
    body: {
      schema: "WebhookRuleCreate",
      required: true,
      description: "The destination, the event types and the threshold offset.",
      example: {
        destination_id: "0b6c3c1e-3f0a-4d5e-9a43-8f1b2c3d4e5f",
        events: ["timer.ended", "timer.threshold"],
        offset_seconds: 300,
      },
    },
    success: { status: 201, schema: "WebhookRuleResponse", description: "The rule." },
    errors: [
      {
        code: "missing_field",
        name: "missing_offset",
        message:
          "offset_seconds is required with timer.threshold: how many seconds before the end to fire",
        details: { field: "offset_seconds" },
      },
      { code: "missing_field", message: "events is required", details: { field: "events" } },
      {
        code: "validation_error",
        name: "unknown_destination",
        message:
          "destination_id must name a webhook destination of this production account; 0b6c3c1e-3f0a-4d5e-9a43-8f1b2c3d4e5f is not one",
        details: { field: "destination_id" },
      },
      {
        code: "validation_error",
        name: "rule_limit",
        message: `this timer already has the maximum of ${MAX_RULES_PER_TIMER} webhook rules; delete one first`,
        details: { field: "rules", reason: "limit_reached", limit: MAX_RULES_PER_TIMER },
      },
      bodyNotJson,
    ],
  },
  "GET /timers/{timer_id}/webhook-rules": {
    operationId: "listWebhookRules",
    summary: "List a timer's webhook rules",
    description: "The rules attached to the timer, newest first.",
    tag: "Webhooks",
    list: true,
    success: { status: 200, schema: "WebhookRuleList", description: "A page of rules." },
  },
  "DELETE /timers/{timer_id}/webhook-rules/{rule_id}": {
    operationId: "deleteWebhookRule",
    summary: "Delete a webhook rule",
    description: "Stops the rule; deliveries it already queued are kept.",
    tag: "Webhooks",
    success: {
      status: 200,
      schema: "DeletedWebhookRuleResponse",
      description: "The id of the deleted rule.",
    },
  },
  "GET /webhook-deliveries": {
    operationId: "listWebhookDeliveries",
    summary: "List webhook deliveries",
    description:
      "Deliveries across destinations, newest first: the event and its payload, every attempt (time, response status, the first 1 KB of the response body, duration, error) and, while pending, when the next attempt is due. Retries follow 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (plus up to 10 % jitter; a `Retry-After` on 429 or 503 is honoured), then the delivery is `failed`.",
    tag: "Webhooks",
    list: true,
    query: [
      {
        name: "status",
        description: "Only deliveries in this status.",
        schema: { type: "string", enum: ["pending", "succeeded", "failed"] },
        example: "failed",
      },
    ],
    success: { status: 200, schema: "WebhookDeliveryList", description: "A page of deliveries." },
  },
  "GET /webhook-deliveries/{delivery_id}": {
    operationId: "getWebhookDelivery",
    summary: "Read a webhook delivery",
    description: "One delivery with its event, payload and every attempt.",
    tag: "Webhooks",
    success: { status: 200, schema: "WebhookDeliveryResponse", description: "The delivery." },
  },
  "POST /webhook-deliveries/{delivery_id}/replay": {
    operationId: "replayWebhookDelivery",
    summary: "Replay a webhook delivery",
    description:
      "Queues a new delivery of the same event to the same destination, whatever the original's status: attempted at once (`trigger: manual`), then retried on the normal schedule. The body and `webhook-id` are the original's, so receivers that deduplicate by id see a replay of an event they already accepted as a duplicate.",
    tag: "Webhooks",
    success: { status: 201, schema: "WebhookDeliveryResponse", description: "The new delivery." },
    errors: [
      {
        code: "validation_error",
        name: "destination_disabled",
        message:
          "the delivery's destination is disabled; enable it (PATCH enabled: true) and replay again",
        details: { field: "destination_id", reason: "destination_disabled" },
      },
    ],
  },
};

const EVENT_TEXT: Record<WebhookEventType, string> = {
  "timer.created": "A timer was created or duplicated (`data` is the new timer).",
  "timer.updated": "A timer was updated (PATCH).",
  "timer.deleted": "A timer was deleted (`data` is the timer as it was deleted).",
  "timer.published": "A timer was published.",
  "timer.archived": "A timer was archived.",
  "timer.restored": "An archived timer was restored to draft.",
  "timer.paused": "A timer was paused.",
  "timer.resumed": "A paused timer was resumed.",
  "timer.extended": "A timer was extended.",
  "timer.reset": "A duration timer's clock was reset.",
  "timer.ended":
    "A timer reached its end: a fixed timer's deadline (moved by pauses and extensions), a duration timer's end, a personalized timer's fallback deadline, or each occurrence of a recurring timer. `timestamp` and `target_at` are that instant.",
  "timer.threshold":
    "`offset_seconds` before a timer's end (a rule's `offset_seconds`). `timestamp` is the threshold instant, `target_at` the end.",
};

/**
 * The document's `webhooks` section: one entry per event type, each a POST with the signed
 * JSON body to the destination's URL.
 */
export function webhookEventDocs(): Record<string, unknown> {
  const header = (name: string, description: string) => ({
    name,
    in: "header",
    required: true,
    description,
    schema: { type: "string" },
  });
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(".", "_")}`,
          summary: type,
          description: `${EVENT_TEXT[type]}\n\n${SIGNING} Only a 2xx answer within 10 seconds succeeds; redirects are not followed; 410 Gone disables the destination.`,
          tags: ["Webhooks"],
          security: [],
          parameters: [
            header("webhook-id", "The event id; the same on every retry and replay."),
            header("webhook-timestamp", "This attempt's time, Unix seconds."),
            header(
              "webhook-signature",
              "`v1,<base64 signature>`, space-separated during a rotation.",
            ),
          ],
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  allOf: [schemaRef("WebhookEvent")],
                  properties: { type: { const: type } },
                },
              },
            },
          },
          responses: {
            "200": {
              description:
                "Any 2xx answer acknowledges the event. Anything else (or no answer in 10 seconds) is retried.",
            },
          },
        },
      },
    ]),
  );
}
