import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@tminus/store";
import { schemaRef } from "../schemas/registry";

/** How every event is signed (Standard Webhooks), as the document says it. */
export const SIGNING =
  "Every event is signed per Standard Webhooks: headers `webhook-id` (the event id, the same on every retry and replay), `webhook-timestamp` (this attempt, Unix seconds) and `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` with the base64-decoded part of the secret after `whsec_`; during 24 hours after a rotation one signature per secret, space-separated).";

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
  "viewer.started":
    "A recipient's first view (rules only, opt-in): a duration timer's image or page opened with a recipient id `r` for the first time, or a personalized timer's URL (its `r`, else its deadline) seen for the first time. `viewer` carries the recipient id, when that viewer's countdown started and when it ends. Once per recipient and timer; at most `webhooks.max_viewer_events_per_timer_day` recipients per timer per UTC day.",
  "viewer.ended":
    "That recipient's own countdown reached zero (rules only, opt-in): the first view plus the duration (moved by pauses and extensions), or the personalized deadline. Sent by the worker at that instant (within about 2 seconds while it runs), to the rules subscribing then; `timestamp` and `viewer.ends_at` are the end. Only for recipients that `viewer.started` tracked (the same cap).",
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
