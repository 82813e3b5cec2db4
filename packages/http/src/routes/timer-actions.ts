import { computeStatus, MAX_DURATION_SECONDS, type TimerClock } from "@tminus/core";
import type { TimerChange, TimerRecord, TimerStatus, TimerType } from "@tminus/store";
import { readJsonBody } from "../body";
import { ApiError, validationError } from "../errors";
import type { RouteContext } from "../handler";
import { timerIdParam } from "../ids";
import type { Route, RouteResult } from "../router";
import { type TimerData, timerData } from "../timer-view";
import { changeTimer, timerResult } from "./_timer-common";

/** The control actions and where each is valid (docs/api.md has the state diagram). */
export const ACTIONS = {
  publish: { from: ["draft"], types: null },
  archive: { from: ["draft", "published"], types: null },
  restore: { from: ["archived"], types: null },
  pause: { from: ["draft", "published"], types: ["fixed", "duration"] },
  resume: { from: ["draft", "published"], types: ["fixed", "duration"] },
  extend: { from: ["draft", "published"], types: ["fixed", "duration", "personalized"] },
  reset: { from: ["draft", "published"], types: ["duration"] },
} as const satisfies Record<
  string,
  { from: readonly TimerStatus[]; types: readonly TimerType[] | null }
>;

/** A control action's name. */
export type ActionName = keyof typeof ACTIONS;

/** How each action is recorded in the activity log (and named in webhook events). */
const RECORDED_AS: Record<ActionName, string> = {
  publish: "published",
  archive: "archived",
  restore: "restored",
  pause: "paused",
  resume: "resumed",
  extend: "extended",
  reset: "reset",
};

function invalid(action: ActionName, reason: string, timer: TimerRecord): ApiError {
  // A state the action does not apply to is a refusal, never a silent no-op. The
  // specification's codes have no dedicated state code; validation_error with details names
  // the field (the timer's status or state) that made the request invalid.
  return new ApiError("validation_error", `${action} is not valid: ${reason}`, {
    details: { field: "status", reason: "invalid_state", status: timer.status, action },
  });
}

function checkApplicable(action: ActionName, timer: TimerRecord): void {
  const rule = ACTIONS[action];
  if (!(rule.from as readonly string[]).includes(timer.status)) {
    throw invalid(
      action,
      `the timer is ${timer.status}; ${action} applies to ${rule.from.join(" or ")} timers`,
      timer,
    );
  }
  if (rule.types && !(rule.types as readonly string[]).includes(timer.type)) {
    throw invalid(
      action,
      `${action} applies to ${rule.types.join(", ")} timers, not ${timer.type}`,
      timer,
    );
  }
}

function withClock(
  current: TimerRecord,
  clock: TimerClock,
  action: ActionName,
  extra: Partial<TimerChange> = {},
): TimerChange {
  const data = timerData(current);
  return {
    action: RECORDED_AS[action],
    changes: clockChanges(data.clock, clock),
    data: { ...data, clock } satisfies TimerData as unknown as Record<string, unknown>,
    ...extra,
  };
}

function clockChanges(before: TimerClock, after: TimerClock) {
  const out: Record<string, { before: unknown; after: unknown }> = {};
  for (const key of Object.keys(after) as (keyof TimerClock)[]) {
    if (before[key] !== after[key])
      out[`clock.${key}`] = { before: before[key], after: after[key] };
  }
  return out;
}

async function readSeconds(ctx: RouteContext): Promise<number> {
  const body = await readJsonBody(ctx.req, ctx.services.config.max_body_bytes);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw validationError("body", 'request body must be a JSON object like { "seconds": 3600 }');
  }
  for (const field of Object.keys(body)) {
    if (field !== "seconds")
      throw validationError(field, `${field} is not a field of extend (only seconds)`);
  }
  const seconds = (body as { seconds?: unknown }).seconds;
  if (seconds === undefined) {
    throw new ApiError("missing_field", "seconds is required: how many seconds to add", {
      details: { field: "seconds" },
    });
  }
  if (
    typeof seconds !== "number" ||
    !Number.isInteger(seconds) ||
    seconds < 1 ||
    seconds > MAX_DURATION_SECONDS
  ) {
    throw validationError(
      "seconds",
      `seconds must be an integer from 1 to ${MAX_DURATION_SECONDS}`,
    );
  }
  return seconds;
}

/** What each action does to a timer it is valid for. Pure: the store may run it twice. */
function transition(
  action: ActionName,
  current: TimerRecord,
  now: number,
  seconds: number,
): TimerChange {
  checkApplicable(action, current);
  const { definition, clock } = timerData(current);
  const status = (to: TimerStatus, extra: Partial<TimerChange> = {}): TimerChange => ({
    action: RECORDED_AS[action],
    changes: { status: { before: current.status, after: to }, ...extra.changes },
    status: to,
    ...extra,
  });
  switch (action) {
    case "publish":
      return withClock(current, { ...clock, published_at: clock.published_at ?? now }, action, {
        status: "published",
        published_at: current.published_at ?? now,
        changes: {
          status: { before: current.status, after: "published" },
          ...clockChanges(clock, { ...clock, published_at: clock.published_at ?? now }),
        },
      });
    case "archive":
      return status("archived");
    case "restore":
      return status("draft");
    case "pause": {
      if (clock.paused_at !== null) throw invalid(action, "the timer is already paused", current);
      if (computeStatus({ definition, clock }, now).ended) {
        throw invalid(action, "the timer has ended; extend it first", current);
      }
      return withClock(current, { ...clock, paused_at: now }, action);
    }
    case "resume": {
      if (clock.paused_at === null) throw invalid(action, "the timer is not paused", current);
      return withClock(
        current,
        { ...clock, paused_at: null, paused_ms: clock.paused_ms + (now - clock.paused_at) },
        action,
      );
    }
    case "extend":
      return withClock(
        current,
        { ...clock, extended_seconds: clock.extended_seconds + seconds },
        action,
      );
    case "reset":
      // The timer's own clock restarts now; per-recipient starts are the recipients' own.
      return withClock(
        current,
        { ...clock, started_at: now, paused_at: null, paused_ms: 0, extended_seconds: 0 },
        action,
      );
  }
}

function actionRoute(action: ActionName): Route<RouteContext> {
  return {
    method: "POST",
    path: `/timers/{timer_id}/${action}`,
    scope: "timers:write",
    async handle(ctx): Promise<RouteResult> {
      timerIdParam(ctx.params.timer_id);
      if (action === "publish" && ctx.auth.key.environment === "sandbox") {
        throw new ApiError(
          "forbidden",
          "a sandbox key cannot publish: public pages, embeds and email images are served only for production timers; use a production key (svc_live_)",
        );
      }
      const seconds = action === "extend" ? await readSeconds(ctx) : 0;
      const timer = await changeTimer(ctx, (current) =>
        transition(action, current, ctx.now, seconds),
      );
      return timerResult(ctx, timer);
    },
  };
}

/** POST /timers/{id}/<action> for every control action, each with If-Match. */
export const timerActionRoutes: Route<RouteContext>[] = (Object.keys(ACTIONS) as ActionName[]).map(
  actionRoute,
);
