import { computeStatus, timerData, type ViewerContext } from "@tminus/core";
import type { DueViewerEnd, TimerRecord } from "@tminus/store";
import { type Advance, type DuePass, duePass } from "./due-rounds";
import { viewerEvent } from "./events";

/** Tracked viewers looked at per store round trip. */
const BATCH = 100;

/** How often a viewer whose countdown has no end yet (a paused timer) is looked at again. */
export const VIEWER_RECHECK_MS = 60_000;

/**
 * One viewer's end on `timer` as of `now`: the instant its own countdown reaches zero (a
 * duration timer's first view plus its length, moved by pauses and extensions; a personalized
 * timer's deadline), or null while it has none (the timer is paused).
 */
export function viewerEndAt(timer: TimerRecord, viewer: ViewerContext, now: number): number | null {
  const { definition, clock } = timerData(timer);
  if (clock.paused_at !== null) return null;
  return computeStatus({ definition, clock, viewer }, now).target_at ?? null;
}

/** Fires one viewer's end, or moves its check later; null when the compare-and-set lost. */
const advance: Advance<DueViewerEnd> = async (due, { store, now, baseUrl }) => {
  const base = {
    timer_id: due.timer_id,
    viewer: due.viewer,
    expected_check_at: due.end_check_at,
    timer_revision: due.timer?.revision ?? null,
    now,
  };
  const timer = due.timer;
  // Deleted or archived: this viewer's end never fires (restoring does not replay it).
  if (!timer || timer.status === "archived") {
    const ok = await store.advanceViewerEnd({ ...base, next_check_at: null, ended: null });
    return ok ? 0 : null;
  }
  const end = viewerEndAt(timer, due.context as ViewerContext, now);
  if (end === null || end > now) {
    const next = end ?? now + VIEWER_RECHECK_MS;
    const ok = await store.advanceViewerEnd({ ...base, next_check_at: next, ended: null });
    return ok ? 0 : null;
  }
  const ended = viewerEvent("viewer.ended", end, baseUrl, {
    recipient_id: due.recipient,
    started_at: due.started_at,
    ends_at: end,
  });
  const ok = await store.advanceViewerEnd({ ...base, next_check_at: null, ended });
  return ok ? 1 : null;
};

/**
 * One pass over the tracked viewers whose end check is due: each one whose countdown has
 * reached zero fires `viewer.ended` (to the rules subscribing to it then) and is done; one
 * whose end moved later (an extension, a pause) is looked at again then. The store advances
 * each check by compare-and-set, so a viewer's end fires once however many workers run.
 * Returns how many events it enqueued.
 */
export const runViewerEndPass: DuePass = duePass(
  (store, now, limit) => store.listDueViewerEnds({ now, limit }),
  advance,
  BATCH,
);
