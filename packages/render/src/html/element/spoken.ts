// The sentence the element's live region holds: minutes precision, so it changes at most once
// a minute (a polite region that changed every second would talk over everything else).
import { splitRemaining, type TimeUnit, unitLabel } from "@tminus/core/browser";

/**
 * "2 days, 3 hours, 5 minutes" for `total` seconds, rounded up to whole minutes, in the
 * look's language; the ended text at 0. Units above the look's largest are counted in it.
 */
export function spokenRemaining(
  total: number,
  look: { locale: string; largest_unit: TimeUnit },
  endedText: string,
): string {
  if (total <= 0) return endedText;
  const parts = splitRemaining(total, {
    largestUnit: look.largest_unit,
    units: ["days", "hours", "minutes"],
  });
  const said = parts.filter((p) => p.value > 0);
  return (said.length > 0 ? said : parts.slice(-1))
    .map((p) => `${p.value} ${unitLabel(p.unit, p.value, look.locale)}`)
    .join(", ");
}
