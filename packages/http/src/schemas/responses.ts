// The shapes /api/v1 answers with, written once as zod schemas. Request bodies come from
// @tminus/core (the schemas that validate them); these cover what the routes build by hand,
// and the black-box tests validate every response against them, so they cannot drift.
import {
  MAX_DURATION_SECONDS,
  TIMER_STATUSES,
  TIMER_TYPES,
  TZDB_VERSION,
  timerSchemas,
} from "@tminus/core";
import { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../errors";
import { PAGE_LIMIT_MAX } from "../paging";

/** Every error code of the specification, in its table's order. */
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** An instant as every answer shows it. */
export const instant = () =>
  z.iso.datetime().meta({
    description: "ISO 8601 date-time in UTC with milliseconds.",
    examples: ["2026-11-27T08:00:00.000Z"],
  });

/** The fields every resource starts with: its id and the kind of object it is. */
export const resourceFields = <T extends string>(object: T) => ({
  id: z.uuid(),
  object: z.literal(object),
});

/** The answer of a DELETE: the id of what is gone. */
export const deletedSchema = <T extends string>(object: T) =>
  z.strictObject({ ...resourceFields(object), deleted: z.literal(true) });
const requestId = () =>
  z.uuid().meta({
    description: "The request's id; the same value is in the X-Request-Id header.",
    examples: ["6f1c2b9e-4d3a-4c55-9f0e-2b7d8a1e5c43"],
  });
const count = () => z.int().min(0);

/** The `page` object of every list. */
export const pageSchema = z
  .strictObject({
    has_more: z.boolean().meta({ description: "True when further items exist." }),
    next_cursor: z.string().nullable().meta({
      description: "Opaque; pass it as `cursor` for the next page. Null when the list is finished.",
    }),
  })
  .meta({ description: "Where a list stands. There is no total count and no page number." });

/** The `error` object of every error response. */
export const errorSchema = z
  .strictObject({
    code: z.enum(ERROR_CODES).meta({ description: "Stable within v1; branch on it." }),
    message: z.string().min(1).meta({ description: "Human-readable; may be reworded." }),
    details: z
      .looseObject({
        field: z.string().optional().meta({
          description:
            "Set on every missing_field and validation_error: the field, parameter or header at fault.",
        }),
        metric: z.literal("new_timers").optional().meta({ description: "quota_exhausted only." }),
        limit: count().optional().meta({ description: "quota_exhausted only." }),
        used: count().optional().meta({ description: "quota_exhausted only." }),
        resets_at: instant().optional().meta({ description: "quota_exhausted only." }),
        current_revision: z.string().optional().meta({
          description: "revision_conflict only: the timer's revision now.",
        }),
      })
      .optional()
      .meta({ description: "Machine-readable facts about the error." }),
  })
  .meta({ description: "What went wrong." });

/** The error envelope: `{ error, request_id }`, never a `data` key. */
export const errorEnvelopeSchema = z
  .strictObject({ error: errorSchema, request_id: requestId() })
  .meta({ description: "Every error, without exception, has this shape." });

/** `{ data, request_id }` around one object. */
export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.strictObject({ data, request_id: requestId() });
}

/** `{ data: [...], page, request_id }` around a list. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.strictObject({
    data: z.array(item).max(PAGE_LIMIT_MAX),
    page: pageSchema,
    request_id: requestId(),
  });
}

// What the server adds to a timer's definition (timer-view.ts).
const timerServerFields = {
  id: z.uuid().meta({ description: "The timer's id." }),
  object: z.literal("timer"),
  status: z.enum(TIMER_STATUSES).meta({ description: "Moved only by the control actions." }),
  environment: z.enum(["sandbox", "production"]),
  revision: z.string().meta({
    description:
      "Opaque revision marker, also in the ETag header; send it back in If-Match on changes.",
    examples: ["r1"],
  }),
  created_at: instant(),
  updated_at: instant(),
  published_at: instant().nullable().meta({ description: "First publication, or null." }),
  urls: z
    .object({
      page: z.string().meta({
        description:
          "Hosted countdown page, with Open Graph and Twitter card tags and the look's call to action.",
      }),
      embed: z.string().meta({ description: "Embed HTML, for an iframe." }),
      gif: z.string().meta({
        description:
          "Animated email GIF (query: r recipient id; deadline/start/sig for personalized timers; frames 1-60, scale 1|2, variant light|dark, width 100-1200).",
      }),
      png: z
        .string()
        .meta({ description: "Still PNG of the current remaining time (same query)." }),
      go: z.string().meta({
        description:
          "Email link that follows the timer (same recipient query as gif): 302 to look.not_started_click_url, look.click_url or ended.click_url by the recipient's state, the hosted page when unset.",
      }),
      embed_script: z.string().meta({
        description:
          'Script that turns <div data-tminus-timer="EMBED_URL"> into an iframe as tall as the embed.',
      }),
    })
    .strict()
    .nullable()
    .meta({
      description:
        "Public URLs while the timer is published; null for drafts and archived timers (never shown publicly).",
    }),
};
// Non-fixed timers carry `deadline_at: null`, so every timer object has the field.
const noDeadline = { deadline_at: z.null() };

/**
 * A timer as the API returns it: the stored definition of its type (defaults applied, instants
 * in UTC) plus the server's fields.
 */
export const timerSchema = z
  .discriminatedUnion("type", [
    timerSchemas.fixed.extend({
      ...timerServerFields,
      // Both forms of the deadline, always (see fixedDeadlineMs in @tminus/core).
      deadline_at: instant().meta({
        description:
          "The deadline instant: as sent, or deadline_local resolved in timezone with the tz rules in force now.",
      }),
      deadline_local: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/)
        .nullable()
        .meta({
          description:
            "The wall-clock deadline in timezone as sent (YYYY-MM-DDTHH:mm:ss), or null when the deadline was sent as deadline_at.",
          examples: ["2026-11-27T09:00:00"],
        }),
    }),
    timerSchemas.duration.extend({ ...timerServerFields, ...noDeadline }),
    timerSchemas.recurring.extend({ ...timerServerFields, ...noDeadline }),
    timerSchemas.personalized.extend({
      ...timerServerFields,
      ...noDeadline,
      signing_secret: z.string().meta({
        description:
          "HMAC key for signing recipients' URL parameters (see personalization.require_signature). Keep it on your server.",
      }),
    }),
  ])
  .meta({ description: "A timer: its definition, status, revision and times." });

/** The answer of DELETE /timers/{timer_id}. */
export const deletedTimerSchema = deletedSchema("timer");

/** `data` of GET /timers/{timer_id}/status. */
export const timerStatusSchema = z
  .strictObject({
    object: z.literal("timer_status"),
    timer_id: z.uuid(),
    type: z.enum(TIMER_TYPES),
    status: z.enum(TIMER_STATUSES),
    state: z.enum(["not_started", "running", "paused", "ended"]).meta({
      description:
        "not_started: a duration timer nobody started (shows its full duration); paused: remaining time is frozen.",
    }),
    remaining: z
      .strictObject({
        total_seconds: count().meta({
          description: "Whole seconds left, rounded up; 0 exactly when ended.",
        }),
        days: count(),
        hours: count(),
        minutes: count(),
        seconds: count(),
      })
      .meta({ description: "Remaining time, also split into parts." }),
    ended: z.boolean(),
    target_at: instant().nullable().meta({
      description: "The instant counted down to, or null when there is none (not started).",
    }),
    server_time: instant().meta({ description: "The service's clock at the time of the reply." }),
    occurrence_at: instant().nullable().optional().meta({
      description: "Recurring timers: the occurrence this status is about.",
    }),
    next_occurrence_at: instant().nullable().optional().meta({
      description: "Recurring timers: the first occurrence after now, or null when none remain.",
    }),
    final: z.boolean().optional().meta({
      description: "Recurring timers: true when no occurrence remains after now.",
    }),
    deadline_source: z.enum(["viewer", "fallback", "none"]).optional().meta({
      description:
        "Personalized timers: whether the deadline came from the viewer's parameters, the fallback, or nowhere (shown as ended).",
    }),
  })
  .meta({ description: "Where a timer stands at the server's clock." });

const usageMetricSchema = z.strictObject({
  metric: z.enum(["new_timers", "api_requests"]).meta({
    description: "new_timers can run out; api_requests is reported, unlimited.",
  }),
  total: count().meta({ description: "Consumed this cycle." }),
  limit: z.union([count(), z.literal("unlimited")]),
  remaining: z.union([count(), z.literal("unlimited")]),
  warning_threshold: count().meta({ description: "80 % of the limit; 0 for unlimited metrics." }),
  starts_at: instant(),
  resets_at: instant(),
});

/** `data` of GET /usage. */
export const usageSchema = z
  .strictObject({
    object: z.literal("usage"),
    environment: z.enum(["sandbox", "production"]),
    plan: z.string().meta({ examples: ["starter"] }),
    cycle: z.strictObject({
      id: z
        .string()
        .regex(/^\d{4}-\d{2}$/)
        .meta({ description: "The calendar month in UTC.", examples: ["2026-11"] }),
      starts_at: instant(),
      resets_at: instant().meta({ description: "When allowances refill." }),
    }),
    metrics: z.array(usageMetricSchema),
  })
  .meta({ description: "Allowance and request counts of the key's account and environment." });

/** One item of GET /timezones. */
export const timeZoneSchema = z
  .strictObject({
    object: z.literal("timezone"),
    id: z.string().meta({
      description: "Canonical IANA identifier, accepted as a timer's timezone.",
      examples: ["Asia/Kolkata"],
    }),
    utc_offset: z
      .string()
      .regex(/^[+-]\d{2}:\d{2}$/)
      .meta({ description: "Offset from UTC at the request's time.", examples: ["+05:30"] }),
    utc_offset_minutes: z
      .int()
      .min(-1440)
      .max(1440)
      .meta({ examples: [330] }),
    observes_dst: z.boolean().meta({
      description: "Whether the offset changes during the 12 months after the request.",
    }),
  })
  .meta({ description: `An accepted time zone (tz database ${TZDB_VERSION}).` });

/** One item of GET /usage/requests. */
export const requestLogEntrySchema = z
  .strictObject({
    object: z.literal("request_log_entry"),
    id: z.uuid(),
    request_id: requestId(),
    method: z.string().meta({ examples: ["POST"] }),
    route: z.string().meta({
      description: "The route template (the path itself for unknown routes).",
      examples: ["/api/v1/timers/{timer_id}"],
    }),
    status: z.int().min(100).max(599),
    error_code: z.enum(ERROR_CODES).nullable().meta({ description: "Null on success." }),
    key_id: z.uuid().meta({ description: "The key that made the request." }),
    key_prefix: z.string().meta({
      description: "The key's non-secret prefix.",
      examples: ["svc_live_AbC12xYz"],
    }),
    duration_ms: z.number().min(0).meta({ description: "Time spent in the service." }),
    created_at: instant(),
  })
  .meta({ description: "One authenticated request of the account, as logged." });

/** One item of GET /timers/{timer_id}/activity. */
export const activityEntrySchema = z
  .strictObject({
    ...resourceFields("timer_activity"),
    timer_id: z.uuid(),
    action: z.string().meta({
      description:
        "created, duplicated, updated, deleted, published, archived, restored, paused, resumed, extended or reset.",
      examples: ["updated"],
    }),
    revision: z.string().meta({ description: "The timer's revision after the change." }),
    actor: z
      .strictObject({ key_id: z.uuid().nullable(), key_prefix: z.string().nullable() })
      .meta({ description: "The key that acted (never its secret); null for the service." }),
    request_id: z.uuid().nullable(),
    changes: z
      .record(z.string(), z.strictObject({ before: z.unknown(), after: z.unknown() }))
      .meta({
        description: "Fields before and after, e.g. { name: { before: 'A', after: 'B' } }.",
      }),
    created_at: instant(),
  })
  .meta({ description: "A change or control action on a timer." });

/** Body of POST /timers/{timer_id}/duplicate (optional). */
export const duplicateRequestSchema = z
  .strictObject({
    name: z
      .string()
      .max(200)
      .regex(/\S/, "must not be blank")
      .optional()
      .meta({ description: 'Name of the copy, trimmed; default: the source name + " (copy)".' }),
  })
  .meta({ description: "Optional; an empty body copies the name too." });

/** Body of POST /timers/{timer_id}/extend. */
export const extendRequestSchema = z
  .strictObject({
    seconds: z
      .int()
      .min(1)
      .max(MAX_DURATION_SECONDS)
      .meta({
        description: "Seconds added to the countdown.",
        examples: [3600],
      }),
  })
  .meta({ description: "How far to move the timer's end." });
