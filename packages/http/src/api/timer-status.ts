import {
  computeStatus,
  formatInstant,
  parseOffsetDateTime,
  resolvePersonalizedViewer,
  timerData,
  type ViewerContext,
} from "@tminus/core";
import type { TimerRecord } from "@tminus/store";
import { z } from "zod";
import { validationError } from "../errors";
import { verifyPersonalizedSignature } from "../personalized-signature";
import { responseSchemas } from "../schemas/registry";
import { DocumentedError } from "../vocabulary/error-cases";
import { timerPath } from "../vocabulary/parameters";
import { loadTimer, type TimerRouteContext } from "./_timer-common";
import type { RouteResult } from "./context";
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
 * The viewer parameters. Which of them a timer takes depends on its type, known once it is
 * loaded: the handler refuses the others then (after a `404` for an unknown timer).
 */
const QUERY = z.object({
  start: z.string().optional().meta({
    description:
      "Duration and personalized timers: this viewer's start (ISO 8601 with offset, or Unix seconds).",
  }),
  deadline: z.string().optional().meta({
    description:
      "Personalized timers: this viewer's deadline (ISO 8601 with offset, or Unix seconds).",
  }),
  sig: z
    .string()
    .optional()
    .meta({ description: "Personalized timers: the signature of the viewer's parameters." }),
});

type StatusContext = TimerRouteContext<unknown, z.output<typeof QUERY>>;

/** A parameter the timer's type does not take (`allowed`: those it does). */
const UNKNOWN_PARAMETER = new DocumentedError(
  "validation_error",
  (name: string, type: string, allowed: readonly string[]) => ({
    message: `${name} is not a parameter of this status request${allowed.length ? ` (a ${type} timer takes ${allowed.join(", ")})` : ""}`,
    details: { field: name },
  }),
  { example: ["deadline", "duration", VIEWER_PARAMS.duration], name: "unknown_parameter" },
);

/**
 * The viewer a status request names. Duration timers take `start` (this viewer's own start);
 * personalized timers take the same `deadline`/`start`/`sig` parameters as their public URLs,
 * signature rules included. Without them: duration timers count from publication,
 * personalized timers use their fallback (docs/api.md).
 */
function viewerOf(
  ctx: StatusContext,
  timer: TimerRecord,
): {
  viewer?: ViewerContext;
  source?: "viewer" | "fallback";
} {
  const allowed = VIEWER_PARAMS[timer.type];
  for (const name of ctx.req.query.keys()) {
    if (!allowed.includes(name)) throw UNKNOWN_PARAMETER.error(name, timer.type, allowed);
  }
  const params = ctx.query;
  const { definition, signing_secret } = timerData(timer);
  if (definition.type === "duration") {
    return params.start ? { viewer: { start_at: instantParam("start", params.start) } } : {};
  }
  if (definition.type === "personalized" && Object.keys(params).length > 0) {
    const resolved = resolvePersonalizedViewer(
      definition,
      params,
      signing_secret ?? null,
      verifyPersonalizedSignature,
    );
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
async function getTimerStatus(ctx: StatusContext): Promise<RouteResult> {
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
    params: timerPath,
    scope: "timers:read",
    operationId: "getTimerStatus",
    summary: "Read a timer's status",
    description:
      "The remaining time at the server's clock, whether the timer has ended, and the server time. Paused timers report their frozen remaining time. Duration and personalized timers can be asked for one viewer with the same parameters as their public URLs; other parameters are a `validation_error`.",
    tag: "Timers",
    query: QUERY,
    success: {
      status: 200,
      schema: responseSchemas.TimerStatusResponse,
      description: "The status reply.",
    },
    errors: [UNKNOWN_PARAMETER],

    handle: getTimerStatus,
  }),
];
