// The webhook shapes of the OpenAPI document: what the webhook routes answer (webhooks/views.ts
// builds them) and the events sent to destinations. The black-box tests validate every
// response against these, so they cannot drift from the views.
import { WEBHOOK_CHANGE_EVENTS, WEBHOOK_EVENT_TYPES } from "@tminus/store";
import { RESPONSE_EXCERPT_BYTES } from "@tminus/webhooks";
import { z } from "zod";
import {
  dataEnvelope,
  deletedSchema,
  instant,
  listEnvelope,
  resourceFields,
  timerSchema,
} from "./responses";
import { OFFSET_MAX } from "./webhook-requests";

const destinationFields = {
  ...resourceFields("webhook_destination"),
  url: z.string().meta({ description: "Where events are POSTed (normalised)." }),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_CHANGE_EVENTS)).meta({
    description: "Change events sent for every timer of the environment, without a rule.",
  }),
  enabled: z.boolean(),
  disabled_reason: z.enum(["disabled", "gone"]).nullable().meta({
    description:
      "Why it is disabled: `disabled` (by you) or `gone` (it answered 410 Gone). Null while enabled.",
  }),
  previous_secret_expires_at: instant().nullable().meta({
    description:
      "During the 24 hours after a rotation the previous secret still signs (a second `v1,` signature); this is when it stops. Null otherwise.",
  }),
  created_at: instant(),
  updated_at: instant(),
};

/** A webhook destination as listed and read: never its secret. */
export const webhookDestinationSchema = z
  .strictObject(destinationFields)
  .meta({ description: "A registered receiver of webhook events." });

/** A destination as created or rotated: the only answers that show the secret. */
export const webhookDestinationWithSecretSchema = z
  .strictObject({
    ...destinationFields,
    secret: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]+=*$/)
      .meta({
        description:
          "The signing secret: `whsec_` + base64 of 32 random bytes. Shown only here; keep it on your server.",
      }),
  })
  .meta({ description: "A destination with its new signing secret, shown once." });

/** A rule on a timer. */
export const webhookRuleSchema = z
  .strictObject({
    ...resourceFields("webhook_rule"),
    timer_id: z.uuid(),
    destination_id: z.uuid(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    offset_seconds: z.int().min(1).max(OFFSET_MAX).nullable().meta({
      description: "timer.threshold fires this many seconds before each end; null without it.",
    }),
    created_at: instant(),
  })
  .meta({ description: "Sends some event types of one timer to one destination." });

/** The body POSTed to a destination. */
export const webhookEventPayloadSchema = z
  .strictObject({
    type: z.enum(WEBHOOK_EVENT_TYPES),
    timestamp: instant().meta({
      description:
        "When the event happened: the change, or for time-based events the instant they are about (the end, or the threshold before it).",
    }),
    data: timerSchema,
    target_at: instant().optional().meta({
      description:
        "timer.ended and timer.threshold only: the end this event is about (a fixed timer's deadline, a recurring timer's occurrence).",
    }),
    offset_seconds: z.int().min(1).optional().meta({
      description: "timer.threshold only: how long before `target_at` it fired.",
    }),
    viewer: z
      .strictObject({
        recipient_id: z.string().nullable().meta({
          description:
            "The recipient id of the URL (`r`); null for a personalized URL without one (told apart by its deadline).",
        }),
        started_at: instant().meta({
          description:
            "When this recipient's countdown started (its first view, or the URL's start).",
        }),
        ends_at: instant().nullable().meta({
          description: "When this recipient's countdown ends; null while the timer is paused.",
        }),
      })
      .optional()
      .meta({ description: "viewer.started and viewer.ended only: the recipient and its times." }),
  })
  .meta({ description: "A webhook event (Standard Webhooks payload)." });

const attemptSchema = z
  .strictObject({
    attempt: z.int().min(1),
    trigger: z.enum(["scheduled", "manual"]).meta({
      description: "`manual` for the first attempt of a replay, `scheduled` otherwise.",
    }),
    started_at: instant(),
    duration_ms: z.number().min(0),
    response_status: z.int().min(100).max(599).nullable().meta({
      description: "The HTTP status answered; null when no answer came (see `error`).",
    }),
    response_body: z
      .string()
      .nullable()
      .meta({
        description: `The first ${RESPONSE_EXCERPT_BYTES} bytes of the answer's body.`,
      }),
    error: z
      .enum([
        "timeout",
        "connection_refused",
        "connection_reset",
        "dns_error",
        "blocked_address",
        "unreachable",
        "tls_hostname_mismatch",
        "tls_untrusted_certificate",
        "tls_error",
        "invalid_response",
        "invalid_url",
        "network_error",
        "destination_deleted",
        "destination_disabled",
      ])
      .nullable()
      .meta({
        description:
          "Why there was no usable answer. `blocked_address`: the host resolved only to refused addresses (SSRF guard). `tls_hostname_mismatch`: the certificate is for other host names; `tls_untrusted_certificate`: it does not chain to a trusted authority; `tls_error`: any other TLS failure. `destination_deleted` / `destination_disabled`: nothing was sent.",
      }),
  })
  .meta({ description: "One call to the destination." });

/** A delivery: one event to one destination, with every attempt. */
export const webhookDeliverySchema = z
  .strictObject({
    ...resourceFields("webhook_delivery"),
    event: z.strictObject({
      id: z.uuid().meta({ description: "The `webhook-id` header: the same on every attempt." }),
      type: z.enum(WEBHOOK_EVENT_TYPES),
      timer_id: z.uuid(),
      occurred_at: instant(),
      payload: webhookEventPayloadSchema,
    }),
    destination_id: z.uuid(),
    rule_id: z.uuid().nullable().meta({
      description: "The rule that matched; null when the destination's own `events` did.",
    }),
    status: z.enum(["pending", "succeeded", "failed"]).meta({
      description:
        "`pending`: an attempt is due or a retry is scheduled (`next_retry_at`); `succeeded`: a 2xx answer; `failed`: every retry failed, the destination answered 410, or it was deleted or disabled.",
    }),
    attempt_count: z.int().min(0),
    next_retry_at: instant().nullable().meta({
      description: "While pending: when the next attempt is due. Null once settled.",
    }),
    replay_of: z.uuid().nullable().meta({ description: "The delivery this one replays." }),
    attempts: z.array(attemptSchema),
    created_at: instant(),
    updated_at: instant(),
  })
  .meta({ description: "One event sent to one destination, attempt by attempt." });

/** Response shapes of the webhook routes and the event payload. */
export const WEBHOOK_RESPONSE_SCHEMAS = {
  WebhookDestination: webhookDestinationSchema,
  WebhookRule: webhookRuleSchema,
  WebhookDelivery: webhookDeliverySchema,
  WebhookEvent: webhookEventPayloadSchema,
  WebhookDestinationResponse: dataEnvelope(webhookDestinationSchema),
  WebhookDestinationSecretResponse: dataEnvelope(webhookDestinationWithSecretSchema),
  WebhookDestinationList: listEnvelope(webhookDestinationSchema),
  DeletedWebhookDestinationResponse: dataEnvelope(deletedSchema("webhook_destination")),
  WebhookRuleResponse: dataEnvelope(webhookRuleSchema),
  WebhookRuleList: listEnvelope(webhookRuleSchema),
  DeletedWebhookRuleResponse: dataEnvelope(deletedSchema("webhook_rule")),
  WebhookDeliveryResponse: dataEnvelope(webhookDeliverySchema),
  WebhookDeliveryList: listEnvelope(webhookDeliverySchema),
};
