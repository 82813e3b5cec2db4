// `GET /t/{id}/countdown.json`: what `<tminus-countdown>` (embed.js) needs to count down in a
// page by itself: the timer's timing fields, its clock and this viewer's context, so the page
// runs core's computeStatus (`@tminus/core/browser`) every second with no further request, plus
// the server's clock and status at `now` for the first paint and the offset to the page's clock.
// Only what images and pages already show leaves: no name, metadata, secrets or click targets.
import {
  currentLook,
  type Ended,
  type Look,
  type TimerClock,
  type TimerDefinition,
  type TimerStatusResult,
  type ViewerContext,
} from "@tminus/core";
import type { ApiResponse } from "../transport/exchange";

/** The fields of each type that computeStatus reads; everything else stays on the server. */
function countdownFields(definition: TimerDefinition): Record<string, unknown> {
  const common = { type: definition.type, timezone: definition.timezone };
  switch (definition.type) {
    case "fixed":
      return {
        ...common,
        ...(definition.deadline_at === undefined ? {} : { deadline_at: definition.deadline_at }),
        ...(definition.deadline_local === undefined
          ? {}
          : { deadline_local: definition.deadline_local }),
      };
    case "duration":
      return {
        ...common,
        duration_seconds: definition.duration_seconds,
        ...(definition.not_after === undefined ? {} : { not_after: definition.not_after }),
      };
    case "recurring": {
      const { rrule, dtstart, exdates, ended_hold_seconds } = definition.recurrence;
      return { ...common, recurrence: { rrule, dtstart, exdates, ended_hold_seconds } };
    }
    case "personalized": {
      // Everything but whether a signature is required: the viewer is resolved already.
      const { require_signature: _, ...personalization } = definition.personalization;
      return { ...common, personalization };
    }
  }
}

/** The look's fields a page draws the countdown with (no links, no call to action). */
function pageLook(look: Look) {
  const l = currentLook(look);
  return {
    units: l.units,
    largest_unit: l.largest_unit,
    pad: l.pad,
    hide_leading_zero_units: l.hide_leading_zero_units,
    separator: l.separator,
    show_labels: l.show_labels,
    locale: l.locale,
    labels: l.labels,
    font: l.font,
    font_size: l.font_size,
    panel: l.panel,
    style: l.style,
    transparent: l.transparent,
    background_color: l.background_color,
    text_color: l.text_color,
    accent_color: l.accent_color,
    dark: l.dark,
  };
}

/** The answer of `GET /t/{id}/countdown.json`; any page may read it (CORS `*`, no cookies). */
export function countdownJson(input: {
  definition: TimerDefinition;
  clock: TimerClock;
  viewer: ViewerContext | undefined;
  status: TimerStatusResult;
  ended: Ended;
  now: number;
  urls: { page: string; gif: string };
}): ApiResponse {
  const body = {
    now: input.now,
    status: input.status,
    timer: {
      definition: countdownFields(input.definition),
      clock: input.clock,
      viewer: input.viewer ?? null,
    },
    look: pageLook(input.definition.look),
    ended: { text: input.ended.text },
    urls: { page: input.urls.page, gif: input.urls.gif },
  };
  return {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "access-control-allow-origin": "*",
      "x-content-type-options": "nosniff",
    },
    body: JSON.stringify(body),
  };
}

/** The answer for a timer that is not shown (draft, archived, unknown id). */
export function countdownJsonNotAvailable(status: number): ApiResponse {
  return {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "access-control-allow-origin": "*",
    },
    body: JSON.stringify({ available: false }),
  };
}
