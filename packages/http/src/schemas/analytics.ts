// The analytics shapes of the OpenAPI document: what GET /analytics and
// GET /timers/{timer_id}/analytics answer (api/analytics.ts builds them).
import { CLIENT_FAMILIES, RENDER_KINDS, REQUEST_SOURCES } from "@tminus/store";
import { z } from "zod";
import { listEnvelope } from "./responses";

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
  })
  .meta({ description: "Public views of one UTC hour or day." });

/** Response components of the analytics routes. */
export const ANALYTICS_RESPONSE_SCHEMAS = {
  AnalyticsBucket: analyticsBucketSchema,
  AnalyticsList: listEnvelope(analyticsBucketSchema),
};
