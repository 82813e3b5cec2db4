import {
  computeStatus,
  TIMER_STATUSES,
  type TimerClock,
  type TimerData,
  timerData,
} from "@tminus/core";
import type { TimerChange, TimerRecord, TimerStatus, TimerType } from "@tminus/store";
import type { ApiError } from "../errors";
import { requestSchemas, responseSchemas } from "../schemas/registry";
import {
  BAD_IF_MATCH,
  BODY_NOT_JSON,
  DocumentedError,
  type ErrorCase,
  MISSING_IF_MATCH,
  STALE_REVISION,
} from "../vocabulary/error-cases";
import { timerPath } from "../vocabulary/parameters";
import { changeTimer, type TimerRouteContext, timerResult } from "./_timer-common";
import type { RouteResult } from "./context";
import { type AnyApiRoute, defineRoute } from "./define";

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

// A state the action does not apply to is a refusal, never a silent no-op. The specification's
// codes have no dedicated state code; validation_error with details names the field (the
// timer's status or state) that made the request invalid.
const INVALID_STATE = new DocumentedError(
  "validation_error",
  (action: ActionName, reason: string, status: TimerStatus) => ({
    message: `${action} is not valid: ${reason}`,
    details: { field: "status", reason: "invalid_state", status, action },
  }),
  { example: ["publish", notIn("publish", "archived"), "archived"], name: "invalid_state" },
);

/** Why an action refuses a timer in `status` (one the action does not apply to). */
function notIn(action: ActionName, status: TimerStatus): string {
  return `the timer is ${status}; ${action} applies to ${ACTIONS[action].from.join(" or ")} timers`;
}

function invalid(action: ActionName, reason: string, timer: TimerRecord): ApiError {
  return INVALID_STATE.error(action, reason, timer.status);
}

function checkApplicable(action: ActionName, timer: TimerRecord): void {
  const rule = ACTIONS[action];
  if (!(rule.from as readonly string[]).includes(timer.status)) {
    throw invalid(action, notIn(action, timer.status), timer);
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

const ACTION_TEXT: Record<ActionName, { summary: string; description: string }> = {
  publish: {
    summary: "Publish a timer",
    description:
      "Makes the timer public: its hosted page, embed and email images are served. A duration timer without recipients starts counting now. A sandbox key cannot publish (`403 forbidden`, the message says why).",
  },
  archive: {
    summary: "Archive a timer",
    description:
      "Takes the timer out of service: public renders stop and it leaves `GET /timers` unless `status=archived` is asked for.",
  },
  restore: {
    summary: "Restore an archived timer",
    description: "Moves an archived timer back to draft.",
  },
  pause: {
    summary: "Pause a timer",
    description:
      "Freezes the remaining time; the status reply shows `state: paused`. Refused when already paused or ended.",
  },
  resume: {
    summary: "Resume a paused timer",
    description:
      "Continues the countdown; the time spent paused moves the end later. Refused when not paused.",
  },
  extend: {
    summary: "Extend a timer",
    description:
      "Moves the end later by `seconds` (repeatable; extensions add up). Works on ended timers too.",
  },
  reset: {
    summary: "Reset a duration timer",
    description:
      "Restarts a duration timer's own clock now, clearing pauses and extensions (viewers with their own start keep it).",
  },
};

/** The documentation every action shares, from its rule. */
function actionDocs(action: ActionName) {
  const rule = ACTIONS[action];
  const types = rule.types ? rule.types.join(", ") : "all";
  const text = ACTION_TEXT[action];
  // The example refusal shows a status the action really refuses.
  const refused = TIMER_STATUSES.find((s) => !(rule.from as readonly string[]).includes(s))!;
  const errors: ErrorCase[] = [
    MISSING_IF_MATCH,
    BAD_IF_MATCH,
    STALE_REVISION,
    INVALID_STATE.case(action, notIn(action, refused), refused),
  ];
  if (action === "publish") {
    errors.push(SANDBOX_CANNOT_PUBLISH);
  }
  if (action === "extend") {
    errors.push(
      {
        code: "missing_field",
        name: "missing_seconds",
        message: "seconds is required",
        details: { field: "seconds" },
      },
      {
        code: "validation_error",
        name: "invalid_seconds",
        message: "seconds must be at least 1",
        details: { field: "seconds" },
      },
      BODY_NOT_JSON,
    );
  }
  return {
    method: "POST",
    path: `/timers/{timer_id}/${action}`,
    params: timerPath,
    scope: "timers:write",
    operationId: `${action}Timer`,
    summary: text.summary,
    description: `${text.description}\n\nValid for timers whose status is ${rule.from.map((s) => `\`${s}\``).join(" or ")}; timer types: ${types}. In any other state the answer is \`400 validation_error\` with \`details.reason: "invalid_state"\`, never a silent no-op. Recorded in the activity log.`,
    tag: "Timer actions",
    headers: ["IfMatch"],
    success: {
      status: 200,
      schema: responseSchemas.TimerResponse,
      description: "The timer after the action, with its new revision.",
      headers: ["ETag"],
    },
    errors,
  } as const;
}

const SANDBOX_CANNOT_PUBLISH = new DocumentedError(
  "forbidden",
  () =>
    "a sandbox key cannot publish: public pages, embeds and email images are served only for production timers; use a production key (svc_live_)",
  { example: [], name: "sandbox_cannot_publish" },
);

/** Runs an action on the timer of the path; `seconds` reads extend's body when it is time to. */
async function runAction(
  ctx: TimerRouteContext,
  action: ActionName,
  seconds: () => Promise<number>,
): Promise<RouteResult> {
  if (action === "publish" && ctx.auth.key.environment === "sandbox") {
    throw SANDBOX_CANNOT_PUBLISH.error();
  }
  const added = await seconds();
  const timer = await changeTimer(ctx, (current) => transition(action, current, ctx.now, added));
  return timerResult(ctx, timer);
}

function actionRoute(action: ActionName): AnyApiRoute {
  const docs = actionDocs(action);
  if (action === "extend") {
    return defineRoute({
      ...docs,
      body: {
        schema: requestSchemas.ExtendRequest,
        required: true,
        description: "How many seconds to add.",
        example: { seconds: 3600 },
      },
      handle: (ctx) => runAction(ctx, action, async () => (await ctx.body()).seconds),
    });
  }
  return defineRoute({ ...docs, handle: (ctx) => runAction(ctx, action, async () => 0) });
}

/** POST /timers/{id}/<action> for every control action, each with If-Match. */
export const timerActionRoutes = (Object.keys(ACTIONS) as ActionName[]).map(actionRoute);
