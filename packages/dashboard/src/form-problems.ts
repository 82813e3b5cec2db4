import { computeStatus, emptyClock, validateTimerCreate } from "@tminus/core";
import { isHexColour } from "./hex-colour";
import { type TimerFormValues, timerBodyOf } from "./timer-form";
import { inZone } from "./zone-time";

// What is wrong with a builder form, in the form's own words: each problem names the field as
// its label does ("Ends at", never `deadline_at`) and says which field it belongs to, so the
// page shows it next to that field. The API's validation stays the judge of a timer; this
// module only rewords its answer and adds what the API cannot know is a mistake (a timer
// that has ended before it was made, a name left blank).

/** One problem of the form, shown next to the field with id `id`. */
export interface FieldProblem {
  /** The id of the field (or group) the problem belongs to. */
  id: string;
  /** The field's label as the form shows it. */
  label: string;
  message: string;
  /** A warning (the timer can still be created on purpose), not an error. */
  warning?: boolean;
}

/** The builder's fields by id, with their labels. */
const LABELS = {
  name: "Name",
  timezone: "Time zone",
  deadline_local: "Ends at",
  duration_days: "Days",
  not_after_local: "Never past",
  freq: "Repeats",
  starts_on: "Starting",
  count: "Times",
  until: "Last day",
  hold_minutes: "Show the ended look for",
  source: "Each link carries",
  offset_hours: "Hours from the start",
  background_color: "Background",
  text_color: "Digits",
  accent_color: "Accent",
  font: "Font",
  font_size: "Digit size",
  panel: "Layout",
  separator: "Separator",
  units: "Units shown",
  locale: "Label language",
  ended_text: "Text shown instead of the digits",
  ended_image_url: "Image instead",
  ended_redirect_url: "Send hosted-page viewers to",
} as const;

type FieldId = keyof typeof LABELS;

/** The API's field paths that are not the builder's field id plus a prefix. */
const API_FIELDS: Readonly<Record<string, FieldId>> = {
  deadline_at: "deadline_local",
  deadline_local: "deadline_local",
  duration_seconds: "duration_days",
  not_after: "not_after_local",
  "recurrence.dtstart": "starts_on",
  "recurrence.ended_hold_seconds": "hold_minutes",
  "personalization.offset_seconds": "offset_hours",
  "ended.text": "ended_text",
  "ended.image_url": "ended_image_url",
  "ended.redirect_url": "ended_redirect_url",
  "look.font_asset_id": "font",
  "look.labels": "locale",
};

/** The builder's field (id and label) an API field path belongs to; null when none shows it. */
export function formFieldOf(apiField: string): { id: string; label: string } | null {
  const bare = apiField.replace(/\[\d+\]$/, "");
  const label = /^look\.labels\.(\w+)$/.exec(bare);
  if (label) return { id: `label_${label[1]}`, label: `Own word for ${label[1]}` };
  let id: string | undefined = API_FIELDS[bare];
  if (!id && bare.startsWith("look.")) id = bare.slice(5);
  if (!id && bare.startsWith("recurrence.")) id = "freq";
  if (!id && bare.startsWith("personalization.")) id = "source";
  id ??= bare;
  return id in LABELS ? { id, label: LABELS[id as FieldId] } : null;
}

/**
 * The API's problem with a field as the form words it: "Ends at: must be ..." for
 * "deadline_at must be ...". Null when no field of the builder shows it.
 */
export function formProblemOf(apiField: string, message: string): FieldProblem | null {
  const field = formFieldOf(apiField);
  if (!field) return null;
  // The API's messages start with the field's path; the label replaces it.
  const rest = message.startsWith(apiField) ? message.slice(apiField.length).trim() : message;
  return { ...field, message: rest.replace(/^:\s*/, "") };
}

/** Problems that stop a save whatever the person wants: a blank name, a colour that is none. */
export function formErrors(v: TimerFormValues): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (v.name === "") {
    out.push({
      id: "name",
      label: LABELS.name,
      message: "give the timer a name: it is how you find it in the list.",
    });
  }
  // An emptied date field: the API would ask for an ISO 8601 instant; the form asks for a day.
  const picked = (value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value);
  if (v.type === "fixed" && !picked(v.deadline_local)) {
    out.push({
      id: "deadline_local",
      label: LABELS.deadline_local,
      message: "pick a day and a time.",
    });
  }
  if (v.type === "recurring" && v.rule_end === "until" && !/^\d{4}-\d{2}-\d{2}$/.test(v.until)) {
    out.push({
      id: "until",
      label: LABELS.until,
      message: "pick the last day, or choose another end.",
    });
  }
  for (const id of ["background_color", "text_color", "accent_color"] as const) {
    if (!isHexColour(v[id])) {
      out.push({
        id,
        label: LABELS[id],
        message: `"${v[id]}" is not a colour: type it as #RRGGBB (like #1d4ed8) or pick one.`,
      });
    }
  }
  return out;
}

/**
 * A timer that would show its ended look from the moment it is made: a deadline (or an
 * evergreen cap) in the past, a rule with no occurrence left. A warning: it can be wanted.
 */
export function endedWarnings(v: TimerFormValues, now: number): FieldProblem[] {
  const checked = validateTimerCreate(timerBodyOf(v));
  if (!checked.ok) return [];
  const definition = checked.value;
  // Fixed and recurring timers end for everyone alike; the others end per viewer.
  const status =
    definition.type === "fixed" || definition.type === "recurring"
      ? computeStatus({ definition, clock: emptyClock() }, now)
      : null;
  const zone = definition.timezone;
  const warn = (id: FieldId, message: string): FieldProblem[] => [
    { id, label: LABELS[id], message, warning: true },
  ];
  if (definition.type === "fixed" && status?.target_at != null && status.target_at <= now) {
    return warn(
      "deadline_local",
      `${inZone(status.target_at, zone)} is in the past: the timer would show its ended look from the start.`,
    );
  }
  if (definition.type === "duration" && definition.not_after !== undefined) {
    const cap = Date.parse(definition.not_after);
    if (cap <= now) {
      return warn(
        "not_after_local",
        `${inZone(cap, zone)} is in the past: every viewer would see the ended look.`,
      );
    }
  }
  if (definition.type === "recurring" && status?.next_occurrence_at === null) {
    const id = v.rule_end === "until" ? "until" : v.rule_end === "count" ? "count" : "starts_on";
    return warn(id, "the rule has already ended: no time is left to count down to.");
  }
  return [];
}
