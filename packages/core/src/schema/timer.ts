// The timer definition a client sends to POST /timers, one strict object per
// type. Field schemas are built by small functions so that the PATCH schemas
// (patch.ts) validate exactly the same values; the fields every type takes come
// from the table in common-fields.ts.
import { z } from "zod";
import { parseRRule } from "../recurrence/rrule";
import { commonCreateShape } from "./common-fields";
import { MAX_DURATION_SECONDS } from "./constants";
import { localDateTime, offsetDateTime, seconds, timeZone } from "./fields";

/** `recurrence` of a recurring timer: an RRULE subset from a wall-clock start. */
export const recurrenceSchema = z
  .strictObject({
    rrule: z
      .string()
      .max(500)
      .superRefine((text, ctx) => {
        const parsed = parseRRule(text);
        if (parsed.ok) return;
        // parseRRule quotes the rule back; the field name already says which one.
        const prefix = `Invalid RRULE "${text}": `;
        const why = parsed.message.startsWith(prefix)
          ? parsed.message.slice(prefix.length)
          : parsed.message;
        const message = `is not a supported RRULE: ${why}`;
        ctx.addIssue(message);
      })
      .meta({
        description:
          "RFC 5545 RRULE subset: FREQ DAILY/WEEKLY/MONTHLY, INTERVAL, BYDAY, BYMONTHDAY, " +
          "BYHOUR, BYMINUTE, COUNT, UNTIL.",
        examples: ["FREQ=WEEKLY;BYDAY=FR;BYHOUR=17;BYMINUTE=0"],
      }),
    dtstart: localDateTime().meta({
      description: "First occurrence, as a wall-clock time in the timer's timezone.",
      examples: ["2026-11-27T17:00"],
    }),
    exdates: z
      .array(localDateTime())
      .max(1000)
      .default(() => [])
      .meta({
        description:
          "Occurrences to skip, as wall-clock times in the timer's timezone. Matched against the wall times the rule generates (by local date and time), not against the instants they resolve to; they still count toward COUNT.",
      }),
    ended_hold_seconds: seconds(0, 604_800).default(0).meta({
      description:
        "How long the ended state shows after an occurrence before counting to the next.",
    }),
  })
  .meta({ description: "When a recurring timer's occurrences are." });

const personalizationCommon = {
  require_signature: z.boolean().default(false).meta({
    description: "Accept only signed recipient URLs, so recipients cannot edit their deadline.",
  }),
  fallback_deadline_at: offsetDateTime().nullable().default(null).meta({
    description: "Deadline when a URL has no valid value; null shows the ended state instead.",
  }),
  max_seconds: seconds(60, 94_867_200).default(MAX_DURATION_SECONDS).meta({
    description: "A recipient deadline further away than this is clamped to it.",
  }),
};

/**
 * `personalization` of a personalized timer. `source` says what each recipient's
 * URL carries: an absolute deadline, or a start to which `offset_seconds` is added.
 */
export const personalizationSchema = z
  .discriminatedUnion("source", [
    z.strictObject({
      source: z.literal("deadline").meta({ description: "The URL carries the deadline." }),
      ...personalizationCommon,
    }),
    z.strictObject({
      source: z.literal("start").meta({ description: "The URL carries a start instant." }),
      offset_seconds: seconds(1, MAX_DURATION_SECONDS).meta({
        description: "Seconds from the recipient's start to their deadline.",
      }),
      ...personalizationCommon,
    }),
  ])
  .meta({ description: "Where each recipient's deadline comes from." });

/** `deadline_at` of a fixed timer: the deadline as an instant. */
export function deadlineAtField() {
  return offsetDateTime().meta({
    description:
      "The deadline, with Z or a numeric UTC offset; stored in UTC. Send this or deadline_local.",
    examples: ["2026-11-27T09:00:00+01:00"],
  });
}

/** `deadline_local` of a fixed timer: the deadline as a wall-clock time in `timezone`. */
export function deadlineLocalField() {
  return localDateTime().meta({
    description:
      "The deadline as a wall-clock time in the timer's timezone (then required). A time " +
      "skipped by a clock change moves forward by the gap; a repeated one is the earlier " +
      "instant; resolved again whenever the zone's rules change. Send this or deadline_at.",
    examples: ["2026-11-27T09:00"],
  });
}

/** `allow_viewer_timezone` of fixed and recurring timers. */
export function allowViewerTimezoneField() {
  return z.boolean().meta({
    description:
      "Let each viewer's `tz` URL parameter read the wall-clock deadline (a fixed timer's " +
      "deadline_local, a recurring timer's rule) in their own zone: \"ends at midnight " +
      'wherever you are". No effect on a fixed timer given as deadline_at. Default false.',
  });
}

/**
 * A timer counting down to one instant, given as `deadline_at` or as
 * `deadline_local` plus `timezone`. Exactly one of the two is required; that
 * rule spans fields, so `validateTimerCreate` checks it (fixed-deadline.ts).
 */
export const fixedTimerSchema = z
  .strictObject({
    type: z.literal("fixed"),
    ...commonCreateShape(),
    deadline_at: deadlineAtField().optional(),
    deadline_local: deadlineLocalField().optional(),
    allow_viewer_timezone: allowViewerTimezoneField().default(false),
  })
  .meta({
    // The cross-field rule, for JSON Schema readers: one form or the other, never both.
    // Each branch names the properties it requires (the object above describes them).
    oneOf: [
      { required: ["deadline_at"], properties: { deadline_at: { type: "string" } } },
      {
        required: ["deadline_local", "timezone"],
        properties: { deadline_local: { type: "string" }, timezone: { type: "string" } },
      },
    ],
  });

/** What starts an evergreen recipient's countdown: `start_on` of duration timers. */
export const START_ON = ["first_open", "first_human_open"] as const;

/** `start_on` of duration timers. */
export function startOnField() {
  return z.enum(START_ON).meta({
    description:
      "What starts a recipient's countdown: `first_open` (default), the first request for " +
      "their image, whoever makes it; `first_human_open`, the first one that is not a " +
      "privacy prefetch (Apple Mail Privacy Protection fetches every image at delivery): a " +
      "prefetch is shown the full duration and starts nothing. See docs/email.md.",
  });
}

/** An evergreen timer: each viewer gets `duration_seconds` from their own start. */
export const durationTimerSchema = z.strictObject({
  type: z.literal("duration"),
  ...commonCreateShape(),
  duration_seconds: seconds(1, MAX_DURATION_SECONDS).meta({
    description: "Length of every viewer's countdown (at most 366 days).",
    examples: [86_400],
  }),
  not_after: offsetDateTime()
    .optional()
    .meta({ description: "No viewer's countdown runs past this instant." }),
  start_on: startOnField().default("first_open"),
});

/** A timer counting down to the next occurrence of a rule in an IANA time zone. */
export const recurringTimerSchema = z.strictObject({
  type: z.literal("recurring"),
  ...commonCreateShape(),
  // Wall-clock occurrences mean nothing without a zone, so no default here.
  timezone: timeZone(),
  recurrence: recurrenceSchema,
  allow_viewer_timezone: allowViewerTimezoneField().default(false),
});

/** A timer whose deadline comes from each recipient's URL. */
export const personalizedTimerSchema = z.strictObject({
  type: z.literal("personalized"),
  ...commonCreateShape(),
  personalization: personalizationSchema,
});

/**
 * The body of POST /timers: one strict object per `type`. Parsing applies
 * defaults and normalizes instants to UTC, giving a {@link TimerDefinition}.
 */
export const timerCreateSchema = z.discriminatedUnion("type", [
  fixedTimerSchema,
  durationTimerSchema,
  recurringTimerSchema,
  personalizedTimerSchema,
]);

/** What a client sends to create a timer. */
export type TimerCreateInput = z.input<typeof timerCreateSchema>;

/** A validated timer definition: defaults applied, instants in UTC. */
export type TimerDefinition = z.output<typeof timerCreateSchema>;

/** The definition of a fixed timer. */
export type FixedTimerDefinition = z.output<typeof fixedTimerSchema>;

/** The definition of a duration timer. */
export type DurationTimerDefinition = z.output<typeof durationTimerSchema>;

/** The definition of a recurring timer. */
export type RecurringTimerDefinition = z.output<typeof recurringTimerSchema>;

/** The definition of a personalized timer. */
export type PersonalizedTimerDefinition = z.output<typeof personalizedTimerSchema>;

/** Each type's own schema, for callers that already know the type. */
export const timerSchemas = {
  fixed: fixedTimerSchema,
  duration: durationTimerSchema,
  recurring: recurringTimerSchema,
  personalized: personalizedTimerSchema,
} as const;
