// "Ends at midnight wherever you are": a timer whose deadline is a wall-clock time (a fixed
// timer's `deadline_local`, a recurring timer's rule) may be read in the viewer's own zone
// instead of its own, when its owner allows it with `allow_viewer_timezone`. The deadline is
// then a different instant per zone; an instant (`deadline_at`), an evergreen duration or a
// recipient's own deadline has no wall time to move, so the viewer's zone changes nothing.
import type { TimerDefinition } from "../schema/timer";
import { isCanonicalTimeZone } from "../time/timezones";

/** Whether `definition` counts to a wall time that its owner lets each viewer read in their zone. */
export function followsViewerTimezone(definition: TimerDefinition): boolean {
  // A switch, not a chain of ifs: a test `type === "fixed"` before the last `return false`
  // could be dropped unnoticed, since no other type's schema admits allow_viewer_timezone.
  switch (definition.type) {
    case "recurring":
      return definition.allow_viewer_timezone === true;
    case "fixed":
      return definition.allow_viewer_timezone === true && definition.deadline_local !== undefined;
    default:
      return false;
  }
}

/** What a viewer's zone did to a definition: used, or ignored and why. */
export type ViewerTimezoneResult =
  | { definition: TimerDefinition; applied: true }
  | { definition: TimerDefinition; applied: false; reason: "not_allowed" | "invalid" };

/**
 * The definition as `zone`'s viewer sees it: its wall-clock deadline (or rule) read in `zone`
 * when the timer follows the viewer's zone and `zone` is a canonical IANA identifier (the
 * same ones GET /timezones lists); otherwise the definition unchanged, with the reason.
 * @example inViewerTimezone(definition, "America/New_York").definition.timezone // "America/New_York"
 */
export function inViewerTimezone(definition: TimerDefinition, zone: string): ViewerTimezoneResult {
  if (!followsViewerTimezone(definition))
    return { definition, applied: false, reason: "not_allowed" };
  if (!isCanonicalTimeZone(zone)) return { definition, applied: false, reason: "invalid" };
  return { definition: { ...definition, timezone: zone }, applied: true };
}
