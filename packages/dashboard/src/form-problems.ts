import {
  adviseTimeZone,
  computeStatus,
  emptyClock,
  isCanonicalTimeZone,
  validateTimerCreate,
} from "@tminus/core";
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
  /** Said only while its field is empty (the page's script hides it as the field is filled). */
  whileEmpty?: boolean;
}

/** Most characters a timer's name may have (the API's limit). */
export const NAME_MAX = 200;
/** Most characters of the text shown after the end (the API's limit). */
export const ENDED_TEXT_MAX = 200;

/** The builder's fields by id, with their labels. */
const LABELS = {
  name: "Name",
  timezone: "Time zone",
  deadline_local: "Ends at",
  duration_days: "Days",
  duration_hours: "Hours",
  duration_minutes: "Minutes",
  not_after_local: "Never past",
  freq: "Repeats",
  starts_on: "Starting",
  count: "Times",
  until: "Last day",
  hold_minutes: "Show the ended look for",
  source: "Each link carries",
  offset_hours: "Hours from the start",
  fallback_local: "Fallback deadline",
  background_color: "Background",
  text_color: "Digits",
  accent_color: "Accent",
  font: "Font",
  font_size: "Digit size",
  style: "Style",
  background_kind: "Behind the countdown",
  gradient_from: "Gradient from",
  gradient_to: "Gradient to",
  gradient_angle: "Gradient direction",
  background_image: "Background image",
  heading_text: "Heading",
  heading_font: "Heading font",
  heading_size: "Heading size",
  heading_color: "Heading colour",
  subheading_text: "Line below",
  subheading_font: "Line below: font",
  subheading_size: "Line below: size",
  subheading_color: "Line below: colour",
  button_label: "Button",
  button_font: "Button font",
  button_size: "Button size",
  button_color: "Button text colour",
  button_background: "Button colour",
  separator: "Separator",
  units: "Units shown",
  locale: "Label language",
  ended_text: "Text shown instead of the digits",
  ended_image_url: "Image instead",
  ended_redirect_url: "Send hosted-page viewers to",
  click_url: "While it runs",
  not_started_click_url: "Before it starts",
  ended_click_url: "After the end",
} as const;

/**
 * What a personalized timer without a fallback shows where a link has no valid value of its
 * own: said beside the empty field, and asked about before the timer is created.
 */
export const FALLBACK_EMPTY: FieldProblem = {
  id: "fallback_local",
  label: "Fallback deadline",
  message:
    "left empty, test sends, previews with unfilled merge tags and links without a valid deadline show the ended look (the text after the end), not a countdown.",
  warning: true,
  whileEmpty: true,
};

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
  "personalization.fallback_deadline_at": "fallback_local",
  "ended.text": "ended_text",
  "ended.image_url": "ended_image_url",
  "ended.redirect_url": "ended_redirect_url",
  "ended.click_url": "ended_click_url",
  "look.click_url": "click_url",
  "look.not_started_click_url": "not_started_click_url",
  "look.font_asset_id": "font",
  "look.labels": "locale",
  "look.panel": "style",
  "look.background": "background_kind",
  "look.background.type": "background_kind",
  "look.background.from": "gradient_from",
  "look.background.to": "gradient_to",
  "look.background.angle": "gradient_angle",
  "look.background.asset_id": "background_image",
  "look.heading": "heading_text",
  "look.subheading": "subheading_text",
  "look.button": "button_label",
  "look.button.background_color": "button_background",
};

// A transparent image draws nothing behind the countdown: said where the fill is chosen.
const TRANSPARENT_FILL =
  "a transparent image draws nothing behind the countdown: choose “The background colour” or untick “Transparent background”.";

// API words a message may still hold after its field is named, in the form's words.
const API_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bpersonalization\.source is "start"/g, "links carry a start"],
  [/\bpersonalization\.offset_seconds\b/g, "“Hours from the start”"],
  [/\boffset_seconds\b/g, "“Hours from the start”"],
  [/\bdeadline_at\b/g, "“Ends at”"],
  [/\bduration_seconds\b/g, "the length"],
  [/ \(see GET \/timezones\)/g, ""],
  [/\bcanonical IANA time zone\b/g, "time zone from the list"],
  [/\ban absolute https:\/\/ URL without user name or password\b/g, "a full https:// address"],
  [
    /must be null when transparent is true \(a transparent look draws no background\)/g,
    TRANSPARENT_FILL,
  ],
  [/ISO 8601 date-time with Z or a numeric UTC offset, like [^ ,;]+/g, "date and time"],
];

// Limits the API states in seconds, said in the form's units.
function inFormUnits(id: string, message: string): string {
  const seconds = /must be at (most|least) (\d+)$/.exec(message);
  if (!seconds) return message;
  const n = Number(seconds[2]);
  if (id === "duration_days") {
    return `the length must be at ${seconds[1]} ${n >= 86_400 ? `${n / 86_400} days` : `${n} seconds`}`;
  }
  if (id === "offset_hours") return `must be at ${seconds[1]} ${n / 3600} hours`;
  if (id === "hold_minutes") return `must be at ${seconds[1]} ${n / 60} minutes`;
  return message;
}

/** The builder's field (id and label) an API field path belongs to; null when none shows it. */
export function formFieldOf(apiField: string): { id: string; label: string } | null {
  const bare = apiField.replace(/\[\d+\]$/, "");
  const label = /^look\.labels\.(\w+)$/.exec(bare);
  if (label) return { id: `label_${label[1]}`, label: `Own word for ${label[1]}` };
  let id: string | undefined = API_FIELDS[bare];
  // look.heading.text is the field heading_text, look.button.size button_size...
  if (!id && bare.startsWith("look.")) id = bare.slice(5).replace(".", "_");
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
  let rest = message.startsWith(apiField) ? message.slice(apiField.length).trim() : message;
  rest = inFormUnits(field.id, rest.replace(/^:\s*/, ""));
  for (const [words, said] of API_WORDS) rest = rest.replace(words, said);
  return { ...field, message: rest };
}

/**
 * A zone that is none, in the form's words, with the canonical zones it probably meant:
 * "New York" and "EST" suggest America/New_York (and say why EST is not a zone).
 */
export function timeZoneProblem(zone: string): FieldProblem {
  const advice = adviseTimeZone(zone);
  const meant =
    advice.suggestions.length > 0 ? ` Did you mean ${advice.suggestions.join(" or ")}?` : "";
  const why = advice.why ? ` ${advice.why.charAt(0).toUpperCase()}${advice.why.slice(1)}` : "";
  return {
    id: "timezone",
    label: LABELS.timezone,
    message: `“${zone}” is not a time zone name from the list.${meant}${why}${meant ? "" : " Type a city, like Europe/Berlin or America/New_York."}`,
  };
}

type ColourField =
  | "background_color"
  | "text_color"
  | "accent_color"
  | "gradient_from"
  | "gradient_to";
const OPTIONAL_COLOURS = [
  "heading_color",
  "subheading_color",
  "button_color",
  "button_background",
] as const;

function notAColour(id: FieldId, value: string): FieldProblem {
  return {
    id,
    label: LABELS[id],
    message: `"${value}" is not a colour: type it as #RRGGBB (like #1d4ed8) or pick one.`,
  };
}

/**
 * Problems that stop a save whatever the person wants: a blank or too long name or ended
 * text, a zone that is none, a colour that is none.
 */
export function formErrors(v: TimerFormValues): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (v.name === "") {
    out.push({
      id: "name",
      label: LABELS.name,
      message: "give the timer a name: it is how you find it in the list.",
    });
  }
  // Refused, never cut: a cut name is not the one that was typed. Counted as the API counts.
  if (v.name.length > NAME_MAX) {
    out.push({
      id: "name",
      label: LABELS.name,
      message: `it has ${v.name.length} characters; a name has at most ${NAME_MAX}. Shorten it.`,
    });
  }
  if (v.ended_text.length > ENDED_TEXT_MAX) {
    out.push({
      id: "ended_text",
      label: LABELS.ended_text,
      message: `it has ${v.ended_text.length} characters; at most ${ENDED_TEXT_MAX} fit. Shorten it.`,
    });
  }
  if (!isCanonicalTimeZone(v.timezone)) out.push(timeZoneProblem(v.timezone));
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
  const colours: ColourField[] = ["background_color", "text_color", "accent_color"];
  if (v.background_kind === "gradient") colours.push("gradient_from", "gradient_to");
  for (const id of colours) {
    if (!isHexColour(v[id])) out.push(notAColour(id, v[id]));
  }
  // Optional colours: empty takes the default; anything typed must be a colour.
  for (const id of OPTIONAL_COLOURS) {
    if (v[id] !== "" && !isHexColour(v[id])) out.push(notAColour(id, v[id]));
  }
  if (v.transparent && v.background_kind !== "colour") {
    out.push({ id: "background_kind", label: LABELS.background_kind, message: TRANSPARENT_FILL });
  }
  if (v.background_kind === "image" && v.background_image === "") {
    out.push({
      id: "background_image",
      label: LABELS.background_image,
      message: "pick one of your uploaded images, or upload one under Fonts & images first.",
    });
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
  if (definition.type === "personalized") {
    const fallback = definition.personalization.fallback_deadline_at;
    if (fallback === null) return [FALLBACK_EMPTY];
    const at = Date.parse(fallback);
    if (at <= now) {
      return warn(
        "fallback_local",
        `${inZone(at, zone)} is in the past: test sends and links without a valid deadline would show the ended look.`,
      );
    }
  }
  return [];
}
