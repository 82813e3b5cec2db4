import { formatInstant } from "@tminus/core";
import type { ActivityEntry } from "@tminus/store";
import { keysetPage } from "../paging";
import { responseSchemas } from "../schemas/registry";
import { PAGE_QUERY, type PageQuery, timerPath } from "../vocabulary/parameters";
import { type TimerRouteContext, timerListStart } from "./_timer-common";
import type { RouteResult } from "./context";
import { defineRoute } from "./define";

/** An activity entry as the API shows it: who (key id and prefix, never the secret), what, when. */
export function activityView(entry: ActivityEntry): Record<string, unknown> {
  return {
    id: entry.id,
    object: "timer_activity",
    timer_id: entry.timer_id,
    action: entry.action,
    revision: `r${entry.revision}`,
    actor: { key_id: entry.key_id, key_prefix: entry.key_prefix },
    request_id: entry.request_id,
    changes: entry.changes,
    created_at: formatInstant(entry.created_at),
  };
}

/** GET /timers/{id}/activity: every change and control action, newest first, paged. */
async function listActivity(ctx: TimerRouteContext<unknown, PageQuery>): Promise<RouteResult> {
  const { limit } = ctx.query;
  const { of, binding, after } = await timerListStart(ctx, "activity");
  // Newest first by revision: a timer's changes are serialised by it, so the order is total.
  const rows = await ctx.services.store.listActivity({
    ...of,
    before_revision: after?.value,
    limit: limit + 1,
  });
  return keysetPage(rows, limit, {
    view: activityView,
    position: (row) => ({ value: row.revision, id: row.id }),
    cursors: ctx.services.cursors,
    binding,
  });
}

/** The activity log route. */
export const timerActivityRoutes = [
  defineRoute({
    method: "GET",
    path: "/timers/{timer_id}/activity",
    params: timerPath,
    scope: "timers:read",
    operationId: "listTimerActivity",
    summary: "List a timer's activity",
    description:
      "Every change and control action on the timer, newest first: who (key id and prefix, never the secret), what changed (fields before and after), when, and the request id.",
    tag: "Timers",
    query: PAGE_QUERY,
    success: {
      status: 200,
      schema: responseSchemas.ActivityList,
      description: "A page of activity entries.",
    },

    handle: listActivity,
  }),
];
