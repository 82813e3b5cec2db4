import { applyTimerPatch, timerData, validateTimerPatch } from "@tminus/core";
import type { TimerRecord } from "@tminus/store";
import { requestSchemas, responseSchemas } from "../schemas/registry";
import {
  BAD_IF_MATCH,
  BODY_NOT_JSON,
  INVALID_TIMEZONE,
  MISSING_IF_MATCH,
  STALE_REVISION,
} from "../vocabulary/error-cases";
import { timerPath } from "../vocabulary/parameters";
import { assertDrawable, UNDRAWABLE_TEXT } from "./_drawable";
import { checkLookBackground, LOOK_BACKGROUND_UNKNOWN } from "./_look-background";
import { checkLookFont, LOOK_FONT_MISSING, LOOK_FONT_UNKNOWN, lookFontBytes } from "./_look-font";
import {
  changeTimer,
  diffFields,
  issueToError,
  loadTimer,
  type TimerRouteContext,
  timerResult,
} from "./_timer-common";
import type { RouteResult } from "./context";
import { defineRoute } from "./define";

/**
 * PATCH /timers/{id}: replaces the fields sent (a top-level field is replaced whole; `null`
 * resets an optional field to its default). The type and status cannot be patched: the type
 * is fixed at creation, the status moves only through the control actions.
 */
async function patchTimer(ctx: TimerRouteContext): Promise<RouteResult> {
  // Validate against the current type before taking the revision lock; the store re-checks
  // the revision, so a concurrent change still loses cleanly.
  const before = await loadTimer(ctx);
  const body = await ctx.body();
  const patch = validateTimerPatch(before.type, body);
  if (!patch.ok) throw issueToError(patch.issues[0]!);
  // The texts as they would be after the change (a patch replaces look and ended whole). A
  // look sent is replaced whole: whatever font it names must be here and draw it; an unchanged
  // look keeps drawing with its font, or the built-in one once that was deleted.
  const after = applyTimerPatch(timerData(before).definition, patch.value);
  if (patch.value.look) await checkLookBackground(ctx, patch.value.look);
  const font = patch.value.look
    ? await checkLookFont(ctx, patch.value.look)
    : await lookFontBytes(ctx, after.ok ? after.value.look : undefined);
  if (after.ok) await assertDrawable(after.value, font);
  const timer = await changeTimer(ctx, (current: TimerRecord) => {
    const { definition, clock } = timerData(current);
    const next = applyTimerPatch(definition, patch.value);
    if (!next.ok) throw issueToError(next.issues[0]!);
    return {
      action: "updated",
      changes: diffFields(
        definition as unknown as Record<string, unknown>,
        next.value as unknown as Record<string, unknown>,
      ),
      name: next.value.name,
      data: { definition: next.value, clock } as unknown as Record<string, unknown>,
    };
  });
  return timerResult(ctx, timer);
}

/** DELETE /timers/{id}: gone from every read and list; its allowance unit stays used. */
async function deleteTimer(ctx: TimerRouteContext): Promise<RouteResult> {
  const timer = await changeTimer(ctx, () => ({ action: "deleted", changes: {}, delete: true }));
  return { data: { id: timer.id, object: "timer", deleted: true } };
}

/** Timer changes: update and delete, both with If-Match. */
export const timerChangeRoutes = [
  defineRoute({
    method: "PATCH",
    path: "/timers/{timer_id}",
    params: timerPath,
    scope: "timers:write",
    operationId: "updateTimer",
    summary: "Update a timer",
    description:
      "Replaces the fields sent: a top-level field (e.g. `look`) is replaced whole; `null` resets an optional field to its default. `type` cannot change and `status` moves only through the control actions. Fields are validated as on create, against the timer's own type. Needs If-Match; of concurrent updates with one revision exactly one wins. Recorded in the activity log.",
    tag: "Timers",
    headers: ["IfMatch"],
    body: {
      schema: requestSchemas.TimerPatch,
      required: true,
      description: "The fields to change.",
      // The schema of the timer's own type (one member of TimerPatch) applies; the handler
      // checks it once the timer is loaded.
      parse: (json: unknown) => json,
      example: { name: "Black Friday 2026", ended: { text: "See you next year" } },
    },
    success: {
      status: 200,
      schema: responseSchemas.TimerResponse,
      description: "The updated timer, with its new revision.",
      headers: ["ETag"],
    },
    errors: [
      LOOK_FONT_UNKNOWN,
      LOOK_FONT_MISSING,
      LOOK_BACKGROUND_UNKNOWN,
      MISSING_IF_MATCH,
      BAD_IF_MATCH,
      {
        code: "validation_error",
        name: "type_unchangeable",
        message: "type cannot be changed (this is a fixed timer); create a new timer instead",
        details: { field: "type" },
      },
      UNDRAWABLE_TEXT,
      BODY_NOT_JSON,
      INVALID_TIMEZONE,
      STALE_REVISION,
    ],

    handle: patchTimer,
  }),
  defineRoute({
    method: "DELETE",
    path: "/timers/{timer_id}",
    params: timerPath,
    scope: "timers:write",
    operationId: "deleteTimer",
    summary: "Delete a timer",
    description:
      "Removes the timer from every read and list; its public renders stop. The allowance unit it used stays used. Needs If-Match. Recorded in the activity log.",
    tag: "Timers",
    headers: ["IfMatch"],
    success: {
      status: 200,
      schema: responseSchemas.DeletedTimerResponse,
      description: "The id of the deleted timer.",
    },
    errors: [MISSING_IF_MATCH, BAD_IF_MATCH, STALE_REVISION],

    handle: deleteTimer,
  }),
];
