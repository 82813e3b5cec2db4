import { formatInstant, parseOffsetDateTime } from "@tminus/core";
import type { AnalyticsGranularity, RenderAnalyticsBucket } from "@tminus/store";
import { z } from "zod";
import { cursorBinding, keysetPage } from "../paging";
import { responseSchemas } from "../schemas/registry";
import { DocumentedError, fieldError } from "../vocabulary/error-cases";
import { listQuery, parameter, timerPath, toldAs } from "../vocabulary/parameters";
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

const QUERY = listQuery({
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
  });
}

/** One page of buckets of a timer (`timerId`) or of the whole environment. */
async function listAnalytics(
  ctx: AnalyticsContext,
  timerId: string | undefined,
): Promise<RouteResult> {
  const { limit, cursor } = ctx.query;
  const range = readRange(ctx);
  const { account, key } = ctx.auth;
  const { store, cursors } = ctx.services;
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
  "Buckets with at least one view, oldest first; hours and days are UTC. Views are counted behind the responses (a process writes its counts every 100 ms; a caller sees its own process's at once). Kept for the operator's `analytics.retention_days` (default 90). Privacy: docs/analytics.md.";

/** What the two analytics operations share: the scope, the query and the answer. */
const SHARED = {
  scope: "timers:read",
  tag: "Analytics",
  query: QUERY,
  errors: [BAD_GRANULARITY, BAD_RANGE],
  success: {
    status: 200,
    schema: responseSchemas.AnalyticsList,
    description: "A page of buckets.",
  },
} as const;

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
];
