import { applyTimerPatch, validateTimerPatch } from "@tminus/core";
import type { TimerRecord } from "@tminus/store";
import { readJsonBody } from "../body";
import type { RouteContext } from "../handler";
import type { Route, RouteResult } from "../router";
import { timerData } from "../timer-view";
import { changeTimer, diffFields, issueToError, loadTimer, timerResult } from "./_timer-common";

/**
 * PATCH /timers/{id}: replaces the fields sent (a top-level field is replaced whole; `null`
 * resets an optional field to its default). The type and status cannot be patched: the type
 * is fixed at creation, the status moves only through the control actions.
 */
async function patchTimer(ctx: RouteContext): Promise<RouteResult> {
  // Validate against the current type before taking the revision lock; the store re-checks
  // the revision, so a concurrent change still loses cleanly.
  const before = await loadTimer(ctx);
  const body = await readJsonBody(ctx.req, ctx.services.config.max_body_bytes);
  const patch = validateTimerPatch(before.type, body);
  if (!patch.ok) throw issueToError(patch.issues[0]!);
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
async function deleteTimer(ctx: RouteContext): Promise<RouteResult> {
  const timer = await changeTimer(ctx, () => ({ action: "deleted", changes: {}, delete: true }));
  return { data: { id: timer.id, object: "timer", deleted: true } };
}

/** Timer changes: update and delete, both with If-Match. */
export const timerChangeRoutes: Route<RouteContext>[] = [
  { method: "PATCH", path: "/timers/{timer_id}", scope: "timers:write", handle: patchTimer },
  { method: "DELETE", path: "/timers/{timer_id}", scope: "timers:write", handle: deleteTimer },
];
