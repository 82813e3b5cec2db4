// The share of a unit that rings and bars show, alike in images and pages.
import type { TimeUnit } from "@tminus/core";

/** Steps of a ring or bar per unit: its share moves one step per unit counted. */
export function unitSteps(unit: TimeUnit): number {
  return unit === "seconds" || unit === "minutes" ? 60 : unit === "hours" ? 24 : 30;
}

/** The step a unit showing `value` is at: the share left of its whole (days: of 30, then full). */
export function unitStep(unit: TimeUnit, value: number): number {
  return Math.min(unitSteps(unit), Math.max(0, value));
}
