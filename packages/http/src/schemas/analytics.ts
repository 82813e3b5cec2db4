// The analytics shapes of the OpenAPI document: what GET /analytics and
// GET /timers/{timer_id}/analytics answer (api/analytics.ts builds them).
import { CLICK_STATES, CLIENT_FAMILIES, RENDER_KINDS, REQUEST_SOURCES } from "@tminus/store";
import { z } from "zod";
import { dataEnvelope, listEnvelope } from "./responses";

const instant = () =>
  z.iso.datetime().meta({
    description: "ISO 8601 date-time in UTC with milliseconds.",
    examples: ["2026-11-27T08:00:00.000Z"],
  });

const counts = <T extends readonly [string, ...string[]]>(names: T, description: string) =>
  z
    .strictObject(
      Object.fromEntries(names.map((n) => [n, z.int().min(0)])) as unknown as {
        [K in T[number]]: z.ZodInt;
      },
    )
    .meta({ description });

const CLICKS_BY_SOURCE =
  "Clicks by who clicked, by the User-Agent rules of views (docs/analytics.md): `human` (a reader's own app or browser), `proxy`, `prefetch` (the bare `Mozilla/5.0` agent of a scanner or prefetch, not a reader). They add up to `clicks`.";

/** One hour or day of public views. */
export const analyticsBucketSchema = z
  .strictObject({
    object: z.literal("analytics_bucket"),
    start: instant().meta({ description: "Start of the UTC hour or day." }),
    end: instant().meta({ description: "End of the bucket (exclusive)." }),
    views: z.int().min(0).meta({ description: "Public views in the bucket, every kind." }),
    unique_viewers: z.int().min(0).meta({
      description:
        "Distinct viewers in the bucket: recipient ids (`r`) where the URL has one, otherwise address and user agent together, hashed with the day's salt. Over several timers (GET /analytics), a recipient id seen on two timers counts once.",
    }),
    by_kind: counts(RENDER_KINDS, "Views by what was shown: email GIF, PNG, hosted page, embed."),
    by_client: counts(
      CLIENT_FAMILIES,
      "Views by email client family, inferred from the request (docs/analytics.md): Gmail's image proxy, Apple Mail (its privacy proxy included), Outlook, Yahoo, other (browsers, pages and embeds included).",
    ),
    by_source: counts(
      REQUEST_SOURCES,
      "Views by who fetched them, inferred from the User-Agent (docs/analytics.md): `human` (the reader's own mail client or browser: the views without proxies and prefetches), `proxy` (a webmail image proxy fetching for a reader: Gmail, Yahoo, ...), `prefetch` (a privacy prefetch that fetches at delivery whether or not anyone reads: Apple Mail Privacy Protection). They add up to `views`.",
    ),
    human_unique_viewers: z.int().min(0).meta({
      description:
        "Distinct viewers in the bucket seen by at least one `human` view: the unique viewers without proxies and prefetches. At most `unique_viewers`.",
    }),
    clicks: z.int().min(0).meta({
      description:
        "Clicks on the timer's link `/t/{timer_id}/go` in the bucket (a click is not a view).",
    }),
    clicks_by_source: counts(REQUEST_SOURCES, CLICKS_BY_SOURCE),
    clicks_by_state: counts(
      CLICK_STATES,
      "Clicks by the timer's state for the reader at the click: `before` its countdown started, `running` (paused included), `ended`. They add up to `clicks`.",
    ),
    click_through: z.number().min(0).nullable().meta({
      description:
        "`clicks_by_source.human` divided by `human_unique_viewers`, rounded to 4 decimals: the readers' clicks per reader who saw the timer. Null when the bucket has no human viewer. Can exceed 1 (a reader may click twice, or click without loading images).",
    }),
  })
  .meta({ description: "Public views of one UTC hour or day." });

const totals = {
  from: instant().meta({ description: "Start of the range: the start of a UTC day." }),
  to: instant().meta({ description: "End of the range (exclusive): the start of a UTC day." }),
  views: z
    .int()
    .min(0)
    .meta({ description: "Views in the range (labelled ones, for a campaign)." }),
  by_source: counts(REQUEST_SOURCES, "The views by who fetched them; they add up to `views`."),
  clicks: z.int().min(0).meta({ description: "Clicks on `/t/{timer_id}/go` in the range." }),
  clicks_by_source: counts(REQUEST_SOURCES, CLICKS_BY_SOURCE),
};

/** One campaign label's views and clicks over a range. */
export const analyticsCampaignSchema = z
  .strictObject({
    object: z.literal("analytics_campaign"),
    campaign: z
      .string()
      .min(1)
      .max(64)
      .meta({
        description:
          "The label: the URL's `c`, else its `utm_campaign`, trimmed, without control characters, at most 64 characters. `other`: the labels past a timer's first 50 of a UTC day.",
        examples: ["spring-sale"],
      }),
    ...totals,
  })
  .meta({ description: "One campaign label's views and clicks over a range." });

/** One timer's views and clicks over a range. */
export const analyticsTimerSchema = z
  .strictObject({
    object: z.literal("analytics_timer"),
    timer_id: z.uuid().meta({ description: "The timer's id." }),
    name: z.string().meta({ description: "The timer's name now." }),
    ...totals,
  })
  .meta({ description: "One timer's views and clicks over a range." });

/** Response components of the analytics routes. */
export const ANALYTICS_RESPONSE_SCHEMAS = {
  AnalyticsBucket: analyticsBucketSchema,
  AnalyticsList: listEnvelope(analyticsBucketSchema),
  AnalyticsCampaign: analyticsCampaignSchema,
  AnalyticsCampaignList: dataEnvelope(z.array(analyticsCampaignSchema).max(100)),
  AnalyticsTimer: analyticsTimerSchema,
  AnalyticsTimerList: dataEnvelope(z.array(analyticsTimerSchema).max(100)),
};
