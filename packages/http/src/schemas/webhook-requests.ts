// Request bodies of the webhook routes, as zod schemas: the same objects validate requests and
// become the OpenAPI document's request components, so the two cannot drift.
import { MAX_DURATION_SECONDS } from "@tminus/core";
import { WEBHOOK_CHANGE_EVENTS, WEBHOOK_EVENT_TYPES } from "@tminus/store";
import { z } from "zod";

/** Longest accepted destination URL. */
export const URL_MAX = 2048;
/** Longest destination description. */
export const DESCRIPTION_MAX = 500;
/** Rules one timer may have. */
export const MAX_RULES_PER_TIMER = 20;
/** Largest `offset_seconds` of a threshold rule: the longest countdown a timer can have. */
export const OFFSET_MAX = MAX_DURATION_SECONDS;

const unique = (list: readonly string[]) => new Set(list).size === list.length;

const url = z
  .string()
  .min(1)
  .max(URL_MAX)
  .meta({
    description: `Where to POST events: an absolute \`https://\` URL (\`http://\` only where the operator allows it), at most ${URL_MAX} characters, without credentials or fragment. Loopback, private, link-local and metadata addresses are refused unless the operator allows private destinations.`,
    examples: ["https://api.example.com/webhooks/tminus"],
  });

const description = z
  .string()
  .max(DESCRIPTION_MAX)
  .nullable()
  .meta({ description: `Your note, at most ${DESCRIPTION_MAX} characters; null clears it.` });

const changeEvents = z
  .array(z.enum(WEBHOOK_CHANGE_EVENTS))
  .max(WEBHOOK_CHANGE_EVENTS.length)
  .refine(unique, "must not repeat an event type")
  .meta({
    description:
      "Change events sent for every timer of the environment, without a rule (for example timer.created, which no rule can ask for since the timer does not exist yet). Time-based events need a rule. Default: none.",
  });

const enabled = z.boolean().meta({
  description:
    "Whether events are sent. Disabled destinations get no new deliveries and their pending ones fail. Setting it to true re-enables a destination disabled after answering 410.",
});

/** POST /webhook-destinations. */
export const destinationCreateSchema = z
  .strictObject({
    url,
    description: description.optional(),
    events: changeEvents.optional(),
    enabled: enabled.optional(),
  })
  .meta({ description: "A new webhook destination." });

/** PATCH /webhook-destinations/{destination_id}: the fields sent are replaced. */
export const destinationUpdateSchema = destinationCreateSchema
  .partial()
  .meta({ description: "The fields to change; absent ones are kept." });

/** POST /timers/{timer_id}/webhook-rules. */
export const ruleCreateSchema = z
  .strictObject({
    destination_id: z.uuid().meta({
      description: "A destination of the same account and environment.",
    }),
    events: z
      .array(z.enum(WEBHOOK_EVENT_TYPES))
      .min(1)
      .max(WEBHOOK_EVENT_TYPES.length)
      .refine(unique, "must not repeat an event type")
      .meta({ description: "The event types of this timer to send." }),
    offset_seconds: z
      .int()
      .min(1)
      .max(OFFSET_MAX)
      .optional()
      .meta({
        description:
          "Required with timer.threshold, refused without it: the threshold fires this many seconds before each end.",
        examples: [300],
      }),
  })
  .meta({ description: "A webhook rule on a timer." });

/** Request bodies of the webhook routes, by component name. */
export const WEBHOOK_REQUEST_SCHEMAS = {
  WebhookDestinationCreate: destinationCreateSchema,
  WebhookDestinationUpdate: destinationUpdateSchema,
  WebhookRuleCreate: ruleCreateSchema,
};
