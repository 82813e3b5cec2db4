/** Tags group operations in documentation browsers. */
export const TAGS = {
  Usage: "The key's account: allowance, request counts and the request log.",
  Timers: "Create, read, list, update, duplicate and delete timers.",
  "Timer actions":
    "Lifecycle and clock actions. Each needs If-Match, is recorded in the activity log and answers the changed timer.",
  "Time zones": "The authoritative list of accepted IANA time zone identifiers.",
  Analytics:
    "Public views (email images, hosted pages, embeds) per hour or day: counts, unique viewers, email clients.",
  Webhooks:
    "Destinations, rules on timers and the deliveries of signed timer events (see the webhooks section for the events themselves).",
  Assets:
    "Uploaded fonts and images of the key's environment: a look draws with an uploaded font through `font_asset_id`.",
  Health:
    "Liveness and readiness probes for load balancers and orchestrators, at the service's root (outside /api/v1). No key.",
} as const;

/** One of {@link TAGS}. */
export type TagName = keyof typeof TAGS;
