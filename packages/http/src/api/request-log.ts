import { environmentOfKey, hasValidChecksum } from "@tminus/admin";
import { formatInstant } from "@tminus/core";
import { type ListRequestLogQuery, type RequestLogEntry, uuidv7Time } from "@tminus/store";
import { z } from "zod";
import { validationError } from "../errors";
import { requestLogCutoff } from "../housekeeping";
import { isUuid } from "../ids";
import { cursorBinding, keysetPage } from "../paging";
import { responseSchemas } from "../schemas/registry";
import { listQuery, parameter, toldAs } from "../vocabulary/parameters";
import type { RouteContext, RouteResult } from "./context";
import { defineRoute } from "./define";

// A key prefix as the log shows it: environment prefix plus 8 base62 characters.
const KEY_PREFIX = /^svc_(test|live)_[0-9A-Za-z]{8}$/;
const ROUTE_MAX = 256;

/** A key as the log filter takes it: its id or its display prefix, never its secret. */
type KeyFilter = Pick<ListRequestLogQuery, "key_id" | "key_prefix">;

function keyFilter(raw: string): KeyFilter | null {
  if (isUuid(raw)) return { key_id: raw.toLowerCase() };
  return KEY_PREFIX.test(raw) ? { key_prefix: raw } : null;
}

const QUERY = listQuery({
  status: toldAs(
    z
      .string()
      .regex(/^\d{3}$/)
      .transform(Number)
      .pipe(z.int().min(100).max(599)),
    () => "status must be an HTTP status code from 100 to 599, like 429",
  )
    .optional()
    .meta({ description: "Only entries with this HTTP status, e.g. `429`.", example: 429 }),
  route: toldAs(
    z
      .string()
      .max(ROUTE_MAX)
      .refine((raw) => raw.startsWith("/")),
    () => "route must be a route template as logged, like /api/v1/timers/{timer_id}",
  )
    .optional()
    .meta({
      pattern: "^/",
      description:
        "Only entries of this route template, exactly as logged, e.g. `/api/v1/timers/{timer_id}`.",
      example: "/api/v1/timers/{timer_id}",
    }),
  key: parameter(
    z.string().transform((raw, ctx): KeyFilter => {
      const filter = keyFilter(raw);
      if (!filter) ctx.addIssue({ code: "custom", message: "not a key id or prefix", input: raw });
      return filter ?? {};
    }),
    {
      // A whole secret in a URL ends up in proxy and server logs: refuse it and say so.
      error: (raw) =>
        validationError(
          "key",
          environmentOfKey(raw) !== null && hasValidChecksum(raw)
            ? "key takes a key's id or prefix (like svc_live_AbC12xYz), never its secret; rotate a key whose secret was sent in a URL"
            : "key must be a key id (UUID) or a key prefix like svc_live_AbC12xYz",
        ),
    },
  )
    .optional()
    .meta({
      type: "string",
      description:
        "Only entries made with this key: its id (UUID) or its prefix (`svc_live_AbC12xYz`). Never send a secret; a full key is refused.",
      example: "svc_live_AbC12xYz",
    }),
  request_id: toldAs(z.guid().toLowerCase(), () => "request_id must be a UUID")
    .optional()
    .meta({ description: "The entry of one request (the `X-Request-Id` it answered with)." }),
});

/** A request-log entry as the API shows it: never the account or environment columns. */
function entryView(entry: RequestLogEntry) {
  return {
    object: "request_log_entry",
    id: entry.id,
    request_id: entry.request_id,
    method: entry.method,
    route: entry.route,
    status: entry.status,
    error_code: entry.error_code,
    key_id: entry.key_id,
    key_prefix: entry.key_prefix,
    duration_ms: entry.duration_ms,
    created_at: formatInstant(entry.created_at),
  };
}

/**
 * GET /usage/requests: the account's own request log in the key's environment, newest first.
 * The retention window is applied on read, so an entry disappears exactly when it leaves the
 * window, whenever the opportunistic purge (housekeeping.ts) gets to it.
 */
async function listRequestLog(
  ctx: RouteContext<unknown, unknown, z.output<typeof QUERY>>,
): Promise<RouteResult> {
  const { limit, cursor, status, route, key: byKey = {}, request_id: requestId } = ctx.query;
  const { account, key } = ctx.auth;
  const { store, cursors, config } = ctx.services;
  const binding = cursorBinding(
    ctx.auth,
    "request_log",
    status,
    route,
    byKey.key_id,
    byKey.key_prefix,
    requestId,
  );
  const after = cursor ? cursors.decode(cursor, binding) : undefined;
  if (!store.listRequestLog) {
    throw new Error(`the ${store.kind} store does not implement listRequestLog`);
  }
  // Entries are written just after each response; waiting for the pending ones means a client
  // always finds the requests it made before this one (on this process).
  await ctx.services.flushRequestLog();
  const rows = await store.listRequestLog({
    account_id: account.id,
    environment: key.environment,
    status,
    route,
    ...byKey,
    request_id: requestId,
    // The handler logs each request at the instant its id carries (handler.ts): knowing the
    // instant, the store finds the entry without an index on request ids.
    created_at: requestId === undefined ? undefined : (uuidv7Time(requestId) ?? undefined),
    after,
    limit: limit + 1,
  });
  // Newest first, so everything after the first entry past the window is past it too.
  const cutoff = requestLogCutoff(config, ctx.now);
  const visible = rows.filter((row) => row.created_at >= cutoff);
  return keysetPage(visible, limit, {
    view: entryView,
    position: (row) => ({ value: row.created_at, id: row.id }),
    cursors,
    binding,
  });
}

/** GET /usage/requests, with the `request_log:read` scope. */
export const requestLogRoutes = [
  defineRoute({
    method: "GET",
    path: "/usage/requests",
    scope: "request_log:read",
    operationId: "listRequestLog",
    summary: "List the request log",
    description:
      "The account's own authenticated API requests in the key's environment, newest first. Entries are kept for the operator's retention window (`request_log_retention_days`, default 30 days); older ones are never listed and are purged. A client always sees the requests it made before this one. Requests that failed authentication are not logged.",
    tag: "Usage",
    query: QUERY,
    success: {
      status: 200,
      schema: responseSchemas.RequestLogList,
      description: "A page of request-log entries.",
    },

    handle: listRequestLog,
  }),
];
