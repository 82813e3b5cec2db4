import { formatInstant, parseOffsetDateTime } from "@tminus/core";
import type { AnalyticsGranularity, AnalyticsTotal, RenderAnalyticsBucket } from "@tminus/store";
import { CAMPAIGNS_PER_TIMER_DAY } from "@tminus/store";
import { z } from "zod";
import { cursorBinding, keysetPage } from "../paging";
import { responseSchemas } from "../schemas/registry";
import { DocumentedError, fieldError } from "../vocabulary/error-cases";
import { listQuery, parameter, timerPath, toldAs } from "../vocabulary/parameters";
import {
  BUCKET_COLUMNS,
  CAMPAIGN_COLUMNS,
  csvResult,
  TIMER_COLUMNS,
  wantsCsv,
} from "./_analytics-csv";
import { loadTimer } from "./_timer-common";
import type { RouteContext, RouteResult } from "./context";
import { defineRoute } from "./define";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** The longest span one query may cover. */
const MAX_SPAN_DAYS = 366;
/** The span read when `from` is not given: a week of hours, or 30 days. */
const DEFAULT_SPAN: Record<AnalyticsGranularity, number> = { hour: 7 * DAY_MS, day: 30 * DAY_MS };

/** An instant parameter: an RFC 3339 date-time with an offset, read into epoch milliseconds. */
const instant = () =>
  toldAs(
    z.string().transform((raw, ctx) => {
      const at = parseOffsetDateTime(raw);
      if (at === null) ctx.addIssue({ code: "custom", message: "not a date-time", input: raw });
      return at ?? 0;
    }),
    (name) => `${name} must be an RFC 3339 date-time with an offset, like 2026-11-01T00:00:00Z`,
  );

const BAD_GRANULARITY = fieldError(
  "validation_error",
  "bad_granularity",
  "granularity",
  "granularity must be hour or day",
);

/** What can be wrong with a range: `from` is not before `to`, or too far before it. */
const RANGE_FAULTS = {
  order: "from must be before to",
  span: `from and to may be at most ${MAX_SPAN_DAYS} days apart`,
};

const BAD_RANGE = new DocumentedError(
  "validation_error",
  (fault: keyof typeof RANGE_FAULTS) => ({
    message: RANGE_FAULTS[fault],
    details: { field: "from" },
  }),
  { example: ["order"], name: "bad_range" },
);

const BAD_FORMAT = fieldError(
  "validation_error",
  "bad_format",
  "format",
  "format must be json or csv",
);

const FORMAT = parameter(z.enum(["json", "csv"]), { error: () => BAD_FORMAT.error() })
  .optional()
  .meta({
    description:
      "`csv`: the answer as `text/csv` (columns: docs/analytics.md), every row of the range in one file, without paging. Default: `json`, or `csv` when the `Accept` header asks for `text/csv` first.",
    example: "csv",
  });

const QUERY = listQuery({
  format: FORMAT,
  from: instant().optional().meta({
    type: "string",
    format: "date-time",
    description:
      "Start of the range (RFC 3339 with an offset), widened to the start of its UTC hour or day. Default: `to` minus 7 days (hour) or 30 days (day).",
    example: "2026-11-01T00:00:00Z",
  }),
  to: instant()
    .optional()
    .meta({
      type: "string",
      format: "date-time",
      description: `End of the range (exclusive), widened to the end of its UTC hour or day. Default: now. At most ${MAX_SPAN_DAYS} days after \`from\`.`,
      example: "2026-11-08T00:00:00Z",
    }),
  granularity: parameter(z.enum(["hour", "day"]), { error: () => BAD_GRANULARITY.error() })
    .default("day")
    .meta({ description: "Bucket size: `hour` or `day` (UTC). Default `day`.", example: "hour" }),
});

type AnalyticsContext = RouteContext<unknown, unknown, z.output<typeof QUERY>>;

/** The query's buckets: `[from, to)` widened to whole buckets, and the granularity. */
function readRange(ctx: AnalyticsContext) {
  const { granularity } = ctx.query;
  const size = granularity === "hour" ? HOUR_MS : DAY_MS;
  const toRaw = ctx.query.to ?? ctx.now;
  const fromRaw = ctx.query.from ?? toRaw - DEFAULT_SPAN[granularity];
  if (fromRaw >= toRaw) throw BAD_RANGE.error("order");
  if (toRaw - fromRaw > MAX_SPAN_DAYS * DAY_MS) throw BAD_RANGE.error("span");
  const from = fromRaw - (((fromRaw % size) + size) % size);
  const to = Math.ceil(toRaw / size) * size;
  return { granularity, size, from, to };
}

/** Clicks of readers' own apps per human unique viewer, or null without human viewers. */
export function clickThrough(
  b: Pick<RenderAnalyticsBucket, "clicks_by_source" | "human_unique_viewers">,
) {
  if (b.human_unique_viewers === 0) return null;
  return Math.round((b.clicks_by_source.human / b.human_unique_viewers) * 10_000) / 10_000;
}

function bucketView(size: number) {
  return (b: RenderAnalyticsBucket) => ({
    object: "analytics_bucket",
    start: formatInstant(b.start),
    end: formatInstant(b.start + size),
    views: b.views,
    unique_viewers: b.unique_viewers,
    by_kind: b.by_kind,
    by_client: b.by_client,
    by_source: b.by_source,
    human_unique_viewers: b.human_unique_viewers,
    clicks: b.clicks,
    clicks_by_source: b.clicks_by_source,
    clicks_by_state: b.clicks_by_state,
    click_through: clickThrough(b),
  });
}

/** The longest CSV: every hour of the longest range. */
const CSV_ROWS_MAX = (MAX_SPAN_DAYS * DAY_MS) / HOUR_MS + 24;

/** One page of buckets of a timer (`timerId`) or of the whole environment. */
async function listAnalytics(
  ctx: AnalyticsContext,
  timerId: string | undefined,
): Promise<RouteResult> {
  const { limit, cursor } = ctx.query;
  const range = readRange(ctx);
  const { account, key } = ctx.auth;
  const { store, cursors } = ctx.services;
  if (wantsCsv(ctx.req, ctx.query.format)) {
    await ctx.services.flushViews();
    // Every bucket of the range: a spreadsheet wants the whole of it, and it is bounded.
    const rows = await store.listRenderAnalytics({
      account_id: account.id,
      environment: key.environment,
      ...(timerId === undefined ? {} : { timer_id: timerId }),
      granularity: range.granularity,
      from: range.from,
      to: range.to,
      limit: CSV_ROWS_MAX,
    });
    const view = bucketView(range.size);
    return csvResult(
      `analytics-${timerId ?? key.environment}-${range.granularity}`,
      BUCKET_COLUMNS,
      rows.map(view),
    );
  }
  const binding = cursorBinding(
    ctx.auth,
    "analytics",
    timerId ?? "*",
    range.granularity,
    range.from,
    range.to,
  );
  const after = cursor ? cursors.decode(cursor, binding) : undefined;
  // Views are counted behind the responses: this process's own go to the store first.
  await ctx.services.flushViews();
  const rows = await store.listRenderAnalytics({
    account_id: account.id,
    environment: key.environment,
    ...(timerId === undefined ? {} : { timer_id: timerId }),
    granularity: range.granularity,
    from: range.from,
    to: range.to,
    after: after?.value,
    limit: limit + 1,
  });
  return keysetPage(rows, limit, {
    view: bucketView(range.size),
    position: (row) => ({ value: row.start, id: range.granularity }),
    cursors,
    binding,
  });
}

const ABOUT =
  "Buckets with at least one view or click, oldest first; hours and days are UTC. Views are counted behind the responses (a process writes its counts every 100 ms; a caller sees its own process's at once). Kept for the operator's `analytics.retention_days` (default 90). Privacy: docs/analytics.md.";

/** What the two analytics operations share: the scope, the query and the answer. */
const SHARED = {
  scope: "timers:read",
  tag: "Analytics",
  query: QUERY,
  errors: [BAD_GRANULARITY, BAD_RANGE, BAD_FORMAT],
  success: {
    status: 200,
    schema: responseSchemas.AnalyticsList,
    description: "A page of buckets; with `format=csv`, every bucket of the range as CSV.",
    csv: BUCKET_COLUMNS,
  },
} as const;

/** The most rows a totals list answers. */
const TOTALS_MAX = 100;

const TOTALS_QUERY = z.object({
  format: FORMAT,
  from: QUERY.shape.from.meta({
    type: "string",
    format: "date-time",
    description:
      "Start of the range (RFC 3339 with an offset), widened to the start of its UTC day: campaigns are counted per UTC day. Default: `to` minus 30 days.",
    example: "2026-11-01T00:00:00Z",
  }),
  to: QUERY.shape.to.meta({
    type: "string",
    format: "date-time",
    description: `End of the range (exclusive), widened to the end of its UTC day. Default: now. At most ${MAX_SPAN_DAYS} days after \`from\`.`,
    example: "2026-11-08T00:00:00Z",
  }),
  limit: toldAs(
    z
      .string()
      .regex(/^\d{1,3}$/)
      .transform(Number)
      .pipe(z.int().min(1).max(TOTALS_MAX)),
    (name) => `${name} must be a whole number from 1 to ${TOTALS_MAX}`,
  )
    .default(TOTALS_MAX)
    .meta({
      description: `How many rows, the most viewed first: 1 to ${TOTALS_MAX} (default ${TOTALS_MAX}).`,
      example: 10,
    }),
});

type TotalsContext = RouteContext<unknown, unknown, z.output<typeof TOTALS_QUERY>>;

function totalFields(t: AnalyticsTotal) {
  return {
    views: t.views,
    by_source: t.by_source,
    clicks: t.clicks,
    clicks_by_source: t.clicks_by_source,
  };
}

/** Totals over whole UTC days of the range, per campaign label or per timer. */
async function listTotals(
  ctx: TotalsContext,
  by: "campaign" | "timer",
  timerId: string | undefined,
): Promise<RouteResult> {
  const toRaw = ctx.query.to ?? ctx.now;
  const fromRaw = ctx.query.from ?? toRaw - 30 * DAY_MS;
  if (fromRaw >= toRaw) throw BAD_RANGE.error("order");
  if (toRaw - fromRaw > MAX_SPAN_DAYS * DAY_MS) throw BAD_RANGE.error("span");
  const from = fromRaw - (((fromRaw % DAY_MS) + DAY_MS) % DAY_MS);
  const to = Math.ceil(toRaw / DAY_MS) * DAY_MS;
  const { account, key } = ctx.auth;
  await ctx.services.flushViews();
  const totals = await ctx.services.store.listAnalyticsTotals({
    account_id: account.id,
    environment: key.environment,
    ...(timerId === undefined ? {} : { timer_id: timerId }),
    by,
    from,
    to,
    limit: ctx.query.limit,
  });
  const range = { from: formatInstant(from), to: formatInstant(to) };
  if (by === "campaign") {
    const items = totals.map((t) => ({
      object: "analytics_campaign" as const,
      campaign: t.key,
      ...range,
      ...totalFields(t),
    }));
    if (wantsCsv(ctx.req, ctx.query.format)) {
      return csvResult(`campaigns-${timerId ?? key.environment}`, CAMPAIGN_COLUMNS, items);
    }
    return { data: items };
  }
  // The names as the account sees them now (every key is a live timer of this environment).
  const items = await Promise.all(
    totals.map(async (t) => {
      const timer = await ctx.services.cache.findTimerById(t.key);
      return {
        object: "analytics_timer" as const,
        timer_id: t.key,
        name: timer?.name ?? "",
        ...range,
        ...totalFields(t),
      };
    }),
  );
  if (wantsCsv(ctx.req, ctx.query.format)) {
    return csvResult(`timers-${key.environment}`, TIMER_COLUMNS, items);
  }
  return { data: items };
}

const TOTALS_ABOUT =
  "Counted per UTC day (the range is widened to whole days), behind the responses like every view. Privacy and the bound on labels: docs/analytics.md.";

/** GET /timers/{timer_id}/analytics and GET /analytics, with the `timers:read` scope. */
export const analyticsRoutes = [
  defineRoute({
    method: "GET",
    path: "/timers/{timer_id}/analytics",
    params: timerPath,
    operationId: "getTimerAnalytics",
    summary: "Read a timer's view analytics",
    description: `Public views of this timer (email GIF and PNG, hosted page, embed) per hour or day: views by kind, by email client family and by who fetched them (human opens, image proxies, privacy prefetches), and unique viewers with and without proxies and prefetches. ${ABOUT}`,
    ...SHARED,
    handle: async (ctx) => listAnalytics(ctx, (await loadTimer(ctx)).id),
  }),
  defineRoute({
    method: "GET",
    path: "/analytics",
    operationId: "getAnalytics",
    summary: "Read the account's view analytics",
    description: `Public views of every live timer of the key's account and environment together (a deleted timer leaves the totals), per hour or day. ${ABOUT}`,
    ...SHARED,
    handle: (ctx) => listAnalytics(ctx, undefined),
  }),
  defineRoute({
    method: "GET",
    path: "/timers/{timer_id}/analytics/campaigns",
    params: timerPath,
    query: TOTALS_QUERY,
    scope: "timers:read",
    tag: "Analytics",
    operationId: "getTimerCampaignAnalytics",
    summary: "Read a timer's views and clicks per campaign",
    description: `Views and clicks of this timer per campaign label over a range, the most viewed first: the label is the URL's \`c\` parameter, or else its \`utm_campaign\`, on the image and \`/go\` URLs. A timer keeps its first ${CAMPAIGNS_PER_TIMER_DAY} labels of each UTC day apart; views and clicks of any later label that day are counted under \`other\`. Requests without a label are in the timer's analytics only. ${TOTALS_ABOUT}`,
    errors: [BAD_RANGE, BAD_FORMAT],
    success: {
      status: 200,
      schema: responseSchemas.AnalyticsCampaignList,
      description: "The labels of the range, the most viewed first; with `format=csv`, as CSV.",
      csv: CAMPAIGN_COLUMNS,
    },
    handle: async (ctx) => listTotals(ctx, "campaign", (await loadTimer(ctx)).id),
  }),
  defineRoute({
    method: "GET",
    path: "/analytics/campaigns",
    query: TOTALS_QUERY,
    scope: "timers:read",
    tag: "Analytics",
    operationId: "getCampaignAnalytics",
    summary: "Read the account's views and clicks per campaign",
    description: `Views and clicks per campaign label over every live timer of the key's account and environment, the most viewed first (one label used on several timers is one row). Labels and their bound: GET /timers/{timer_id}/analytics/campaigns. ${TOTALS_ABOUT}`,
    errors: [BAD_RANGE, BAD_FORMAT],
    success: {
      status: 200,
      schema: responseSchemas.AnalyticsCampaignList,
      description: "The labels of the range, the most viewed first; with `format=csv`, as CSV.",
      csv: CAMPAIGN_COLUMNS,
    },
    handle: (ctx) => listTotals(ctx, "campaign", undefined),
  }),
  defineRoute({
    method: "GET",
    path: "/analytics/timers",
    query: TOTALS_QUERY,
    scope: "timers:read",
    tag: "Analytics",
    operationId: "getTimerTotals",
    summary: "Read the account's most viewed timers",
    description: `Views and clicks per live timer of the key's account and environment over a range, the most viewed first (then the most clicked). ${TOTALS_ABOUT}`,
    errors: [BAD_RANGE, BAD_FORMAT],
    success: {
      status: 200,
      schema: responseSchemas.AnalyticsTimerList,
      description:
        "The timers with views or clicks in the range, the most viewed first; with `format=csv`, as CSV.",
      csv: TIMER_COLUMNS,
    },
    handle: (ctx) => listTotals(ctx, "timer", undefined),
  }),
];
