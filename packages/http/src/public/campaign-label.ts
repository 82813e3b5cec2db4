import type { TimerStatusResult } from "@tminus/core";
import type { ClickState } from "@tminus/store";
import type { ApiRequest } from "../transport/exchange";

/** The longest label kept, in characters; longer ones are cut (docs/analytics.md). */
export const CAMPAIGN_LABEL_MAX = 64;

// Control characters and the lone halves of surrogate pairs would make a label that no CSV
// cell or page shows as it came.
// biome-ignore lint/suspicious/noControlCharactersInRegex: what it removes
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udfff]/gu;

/**
 * The send an image or link request belongs to: the explicit `c` label, else the
 * `utm_campaign` that link trackers add, trimmed and cut to {@link CAMPAIGN_LABEL_MAX}
 * characters; null when there is none. The store bounds how many a timer's day keeps.
 */
export function campaignLabel(req: Pick<ApiRequest, "query">): string | null {
  const raw = req.query.get("c") ?? req.query.get("utm_campaign");
  if (raw === null) return null;
  const label = [...raw.replace(UNPRINTABLE, "").trim()].slice(0, CAMPAIGN_LABEL_MAX).join("");
  return label === "" ? null : label.trimEnd();
}

/** The timer's state at a click as analytics count it: a paused countdown is running. */
export function clickState(state: TimerStatusResult["state"]): ClickState {
  if (state === "not_started") return "before";
  return state === "ended" ? "ended" : "running";
}
