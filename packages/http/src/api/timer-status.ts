import {
  computeStatus,
  formatInstant,
  parseOffsetDateTime,
  resolvePersonalizedViewer,
  timerData,
  type ViewerContext,
} from "@tminus/core";
import type { TimerRecord } from "@tminus/store";
import { validationError } from "../errors";
import { responseSchemas } from "../schemas/registry";
import { loadTimer } from "./_timer-common";
import type { RouteContext, RouteResult } from "./context";
import { defineRoute } from "./define";

/** Query parameters that name a viewer, by timer type. */
const VIEWER_PARAMS: Record<TimerRecord["type"], readonly string[]> = {
  fixed: [],
  recurring: [],
  duration: ["start"],
  personalized: ["deadline", "start", "sig"],
};

function instantParam(name: string, raw: string): number {
  const ms = /^\d{1,12}$/.test(raw) ? Number(raw) * 1000 : parseOffsetDateTime(raw);
  if (ms === null) {
    throw validationError(
      name,
      `${name} must be an ISO 8601 date-time with Z or a numeric offset, or whole Unix seconds`,
    );
  }
  return ms;
}

/**
 * The viewer a status request names. Duration timers take `start` (this viewer's own start);
 * personalized timers take the same `deadline`/`start`/`sig` parameters as their public URLs,
 * signature rules included. Without them: duration timers count from publication,
 * personalized timers use their fallback (docs/api.md).
 */
function viewerOf(
  ctx: RouteContext,
  timer: TimerRecord,
): {
  viewer?: ViewerContext;
  source?: "viewer" | "fallback";
} {
  const allowed = VIEWER_PARAMS[timer.type];
  const params: Record<string, string> = {};
  for (const [name, value] of ctx.req.query) {
    if (!allowed.includes(name)) {
      const hint = allowed.length ? ` (a ${timer.type} timer takes ${allowed.join(", ")})` : "";
      throw validationError(name, `${name} is not a parameter of this status request${hint}`);
    }
    params[name] = value;
  }
  const { definition, signing_secret } = timerData(timer);
  if (definition.type === "duration") {
    return params.start ? { viewer: { start_at: instantParam("start", params.start) } } : {};
  }
  if (definition.type === "personalized" && Object.keys(params).length > 0) {
    const resolved = resolvePersonalizedViewer(definition, params, signing_secret ?? null);
    if (resolved.valid) {
      const { valid: _valid, ...viewer } = resolved as typeof resolved & { valid: true };
      return { viewer: viewer as ViewerContext };
    }
  }
  return {};
}

const iso = (ms: number | null | undefined) =>
  ms === undefined ? undefined : ms === null ? null : formatInstant(ms);

/** GET /timers/{id}/status: the remaining time at the server's clock, for all four types. */
async function getTimerStatus(ctx: RouteContext): Promise<RouteResult> {
  const timer = await loadTimer(ctx);
  const { definition, clock } = timerData(timer);
  const { viewer } = viewerOf(ctx, timer);
  const status = computeStatus({ definition, clock, viewer }, ctx.now);
  const data: Record<string, unknown> = {
    object: "timer_status",
    timer_id: timer.id,
    type: timer.type,
    status: timer.status,
    state: status.state,
    remaining: status.remaining,
    ended: status.ended,
    target_at: iso(status.target_at),
    server_time: formatInstant(ctx.now),
  };
  if (timer.type === "recurring") {
    data.occurrence_at = iso(status.occurrence_at ?? null);
    data.next_occurrence_at = iso(status.next_occurrence_at ?? null);
    data.final = status.final ?? false;
  }
  if (timer.type === "personalized") data.deadline_source = status.deadline_source ?? "none";
  return { data };
}

/** The status route. */
export const timerStatusRoutes = [
  defineRoute({
    method: "GET",
    path: "/timers/{timer_id}/status",
    scope: "timers:read",
    operationId: "getTimerStatus",
    summary: "Read a timer's status",
    description:
      "The remaining time at the server's clock, whether the timer has ended, and the server time. Paused timers report their frozen remaining time. Duration and personalized timers can be asked for one viewer with the same parameters as their public URLs; other parameters are a `validation_error`.",
    tag: "Timers",
    query: [
      {
        name: "start",
        description:
          "Duration and personalized timers: this viewer's start (ISO 8601 with offset, or Unix seconds).",
        schema: { type: "string" },
      },
      {
        name: "deadline",
        description:
          "Personalized timers: this viewer's deadline (ISO 8601 with offset, or Unix seconds).",
        schema: { type: "string" },
      },
      {
        name: "sig",
        description: "Personalized timers: the signature of the viewer's parameters.",
        schema: { type: "string" },
      },
    ],
    success: {
      status: 200,
      schema: responseSchemas.TimerStatusResponse,
      description: "The status reply.",
    },
    errors: [
      {
        code: "validation_error",
        name: "unknown_parameter",
        message:
          "deadline is not a parameter of this status request (a duration timer takes start)",
        details: { field: "deadline" },
      },
    ],

    handle: getTimerStatus,
  }),
];
