import {
  DARK_PALETTE,
  DEFAULT_LOOK,
  formatInstant,
  formatLocalDateTime,
  LOOK_WORDS_LIMITS,
  type Look,
  type LookWords,
  parseLocalDateTime,
  resolveLocal,
  TIME_UNITS,
  type TimerDefinition,
  zoneOffsetMs,
} from "@tminus/core";
import { normalizeHex } from "./hex-colour";

// The builder's form and the API's timer body, both ways. The form speaks a marketer's terms
// (a local date and time, days and hours, "every week on Friday at 17:00"); the API body is
// what POST /timers validates. The dashboard never validates a timer itself: it builds the
// body and lets the API's own validation answer.

/** Weekday codes of RRULE BYDAY, Monday first, with their names. */
export const WEEKDAYS = [
  ["MO", "Monday"],
  ["TU", "Tuesday"],
  ["WE", "Wednesday"],
  ["TH", "Thursday"],
  ["FR", "Friday"],
  ["SA", "Saturday"],
  ["SU", "Sunday"],
] as const;

const FREQUENCIES = { DAILY: "day", WEEKLY: "week", MONTHLY: "month" } as const;
type Frequency = keyof typeof FREQUENCIES;

/** The builder's fields, every one a string (checkbox groups are lists). */
export interface TimerFormValues {
  name: string;
  type: string;
  timezone: string;
  deadline_local: string;
  duration_days: string;
  duration_hours: string;
  duration_minutes: string;
  /** Evergreen: no viewer's countdown runs past this wall time (empty: no cap). */
  not_after_local: string;
  /** Evergreen: a privacy prefetch (Apple Mail) starts nothing; the first human open does. */
  start_on_human: boolean;
  freq: string;
  interval: string;
  byday: string[];
  bymonthday: string;
  at_time: string;
  starts_on: string;
  hold_minutes: string;
  /** How the rule ends: never, after `count` occurrences, or on the `until` date. */
  rule_end: string;
  count: string;
  until: string;
  source: string;
  offset_hours: string;
  require_signature: boolean;
  /** Personalized: the wall time (in the zone) links without a valid value count to; empty: none. */
  fallback_local: string;
  theme: string;
  background_color: string;
  text_color: string;
  accent_color: string;
  font: string;
  font_size: string;
  units: string[];
  show_labels: boolean;
  pad: boolean;
  /** "0 days 05 hours" shows "05 hours": the largest units hide while they are zero. */
  hide_leading_zero_units: boolean;
  separator: string;
  locale: string;
  labels: Record<string, string>;
  /** How the row is drawn: `look.style` (rounded, plain, minimal, boxes, outlined, flip, circles, bar). */
  style: string;
  /** What fills the image behind the countdown: `colour` (none), `gradient` or `image`. */
  background_kind: string;
  gradient_from: string;
  gradient_to: string;
  /** Degrees, as CSS linear-gradient: 180 runs top to bottom. */
  gradient_angle: string;
  /** The uploaded image's asset id (with `background_kind` image). */
  background_image: string;
  /** Words above the countdown; empty text: none. Font empty: the look's own font. */
  heading_text: string;
  heading_font: string;
  heading_size: string;
  /** Empty: the digits' colour. */
  heading_color: string;
  /** The line below the countdown. */
  subheading_text: string;
  subheading_font: string;
  subheading_size: string;
  subheading_color: string;
  /** The button-like label under it; empty: none. */
  button_label: string;
  button_font: string;
  button_size: string;
  /** The label's colour; empty: the background colour. */
  button_color: string;
  /** The button's fill; empty: the accent colour. */
  button_background: string;
  transparent: boolean;
  dark_variant: boolean;
  ended_text: string;
  ended_image_url: string;
  ended_redirect_url: string;
  /** Where the email's link (`/go`) leads while the timer runs (empty: the hosted page). */
  click_url: string;
  /** ... before the recipient's countdown starts (a personalized start in the future). */
  not_started_click_url: string;
  /** ... once it has ended. */
  ended_click_url: string;
  /** Preview only (never saved): draw the ended look instead of the running countdown. */
  preview_ended: boolean;
}

/** Today's date (`YYYY-MM-DD`) in `zone` at `now`; in UTC when the zone is not one. */
export function todayIn(zone: string, now: number): string {
  let offset = 0;
  try {
    offset = zoneOffsetMs(zone, now);
  } catch {
    // Not a zone (yet: the field is being typed): the API names the problem.
  }
  return new Date(now + offset).toISOString().slice(0, 10);
}

/**
 * The builder's starting values: a fixed timer a week from now, the default look; a
 * recurring rule starts today in the timer's zone (its next occurrence may be today).
 */
export function defaultFormValues(now: number, zone = "Etc/UTC"): TimerFormValues {
  const inAWeek = new Date(now + 7 * 86_400_000).toISOString();
  return {
    name: "",
    type: "fixed",
    timezone: zone,
    deadline_local: `${inAWeek.slice(0, 10)}T12:00`,
    duration_days: "1",
    duration_hours: "0",
    duration_minutes: "0",
    not_after_local: "",
    start_on_human: false,
    freq: "WEEKLY",
    interval: "1",
    byday: ["FR"],
    bymonthday: "1",
    at_time: "17:00",
    starts_on: todayIn(zone, now),
    hold_minutes: "0",
    rule_end: "never",
    count: "10",
    until: "",
    source: "deadline",
    offset_hours: "48",
    require_signature: false,
    fallback_local: "",
    theme: DEFAULT_LOOK.theme,
    background_color: DEFAULT_LOOK.background_color,
    text_color: DEFAULT_LOOK.text_color,
    accent_color: DEFAULT_LOOK.accent_color,
    font: DEFAULT_LOOK.font,
    font_size: String(DEFAULT_LOOK.font_size),
    units: [...DEFAULT_LOOK.units],
    show_labels: DEFAULT_LOOK.show_labels,
    pad: DEFAULT_LOOK.pad,
    hide_leading_zero_units: DEFAULT_LOOK.hide_leading_zero_units,
    separator: DEFAULT_LOOK.separator,
    locale: DEFAULT_LOOK.locale,
    labels: {},
    style: DEFAULT_LOOK.style,
    background_kind: "colour",
    gradient_from: "#1E3A8A",
    gradient_to: "#7C3AED",
    gradient_angle: "180",
    background_image: "",
    heading_text: "",
    heading_font: "",
    heading_size: String(LOOK_WORDS_LIMITS.heading.size),
    heading_color: "",
    subheading_text: "",
    subheading_font: "",
    subheading_size: String(LOOK_WORDS_LIMITS.subheading.size),
    subheading_color: "",
    button_label: "",
    button_font: "",
    button_size: String(LOOK_WORDS_LIMITS.button.size),
    button_color: "",
    button_background: "",
    transparent: DEFAULT_LOOK.transparent,
    dark_variant: false,
    ended_text: "Ended",
    ended_image_url: "",
    ended_redirect_url: "",
    click_url: "",
    not_started_click_url: "",
    ended_click_url: "",
    preview_ended: false,
  };
}

/** Reads the builder's fields from a submitted form (or the preview's query). */
export function readTimerForm(form: URLSearchParams, now: number): TimerFormValues {
  const base = defaultFormValues(now);
  const text = (name: keyof TimerFormValues) => (form.get(name) ?? (base[name] as string)).trim();
  const labels: Record<string, string> = {};
  for (const unit of TIME_UNITS) {
    const value = (form.get(`label_${unit}`) ?? "").trim();
    if (value !== "") labels[unit] = value;
  }
  const timezone = text("timezone");
  return {
    name: text("name"),
    type: text("type"),
    timezone,
    deadline_local: text("deadline_local"),
    duration_days: text("duration_days"),
    duration_hours: text("duration_hours"),
    duration_minutes: text("duration_minutes"),
    not_after_local: text("not_after_local"),
    start_on_human: form.get("start_on_human") === "on",
    freq: text("freq"),
    interval: text("interval"),
    byday: form.getAll("byday"),
    bymonthday: text("bymonthday"),
    at_time: text("at_time"),
    // Left empty: today in the timer's zone, as the builder shows it.
    starts_on: form.get("starts_on")?.trim() || todayIn(timezone, now),
    hold_minutes: text("hold_minutes"),
    rule_end: text("rule_end"),
    count: text("count"),
    until: text("until"),
    source: text("source"),
    offset_hours: text("offset_hours"),
    require_signature: form.get("require_signature") === "on",
    fallback_local: text("fallback_local"),
    theme: text("theme"),
    background_color: normalizeHex(text("background_color")),
    text_color: normalizeHex(text("text_color")),
    accent_color: normalizeHex(text("accent_color")),
    font: text("font"),
    font_size: text("font_size"),
    units: form.getAll("units"),
    show_labels: form.get("show_labels") === "on",
    pad: form.get("pad") === "on",
    hide_leading_zero_units: form.get("hide_leading_zero_units") === "on",
    separator: form.get("separator") ?? base.separator,
    locale: text("locale"),
    labels,
    // Before styles the form sent the panel alone (rounded or plain): the same choice.
    style: (form.get("style") ?? form.get("panel") ?? base.style).trim(),
    background_kind: text("background_kind"),
    gradient_from: normalizeHex(text("gradient_from")),
    gradient_to: normalizeHex(text("gradient_to")),
    gradient_angle: text("gradient_angle"),
    background_image: text("background_image"),
    heading_text: text("heading_text"),
    heading_font: text("heading_font"),
    heading_size: text("heading_size"),
    heading_color: optionalHex(text("heading_color")),
    subheading_text: text("subheading_text"),
    subheading_font: text("subheading_font"),
    subheading_size: text("subheading_size"),
    subheading_color: optionalHex(text("subheading_color")),
    button_label: text("button_label"),
    button_font: text("button_font"),
    button_size: text("button_size"),
    button_color: optionalHex(text("button_color")),
    button_background: optionalHex(text("button_background")),
    transparent: form.get("transparent") === "on",
    dark_variant: form.get("dark_variant") === "on",
    ended_text: text("ended_text"),
    ended_image_url: text("ended_image_url"),
    ended_redirect_url: text("ended_redirect_url"),
    click_url: text("click_url"),
    not_started_click_url: text("not_started_click_url"),
    ended_click_url: text("ended_click_url"),
    preview_ended: form.get("preview_ended") === "on",
  };
}

// An optional colour: empty stays empty (the default applies), anything else as a colour field.
function optionalHex(value: string): string {
  return value === "" ? "" : normalizeHex(value);
}

// A number field: its value, or the text itself so that the API names the bad field.
function num(value: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

/** The local wall-clock value as an instant with offset, or the raw text when it is not one. */
function deadlineAt(local: string, zone: string): string {
  const parsed = parseLocalDateTime(local.length === 16 ? `${local}:00` : local);
  if (!parsed) return local;
  try {
    return formatInstant(resolveLocal(parsed, zone));
  } catch {
    return `${local}Z`;
  }
}

/** The RRULE text of the rule editor's fields. */
export function ruleOf(v: TimerFormValues): string {
  const freq = (v.freq in FREQUENCIES ? v.freq : "WEEKLY") as Frequency;
  const [hour, minute] = v.at_time.split(":");
  const parts = [`FREQ=${freq}`];
  if (v.interval !== "1" && v.interval !== "") parts.push(`INTERVAL=${v.interval}`);
  if (freq === "WEEKLY" && v.byday.length > 0) parts.push(`BYDAY=${v.byday.join(",")}`);
  if (freq === "MONTHLY") parts.push(`BYMONTHDAY=${v.bymonthday}`);
  parts.push(`BYHOUR=${Number(hour ?? 0)}`, `BYMINUTE=${Number(minute ?? 0)}`);
  if (v.rule_end === "count") parts.push(`COUNT=${v.count}`);
  // A date UNTIL: the last day (inclusive) in the timer's own wall time.
  if (v.rule_end === "until") parts.push(`UNTIL=${v.until.replaceAll("-", "")}`);
  return parts.join(";");
}

/** "Every week on Friday at 17:00", from the rule editor's fields. */
export function describeRule(v: TimerFormValues): string {
  const freq = (v.freq in FREQUENCIES ? v.freq : "WEEKLY") as Frequency;
  const n = Number(v.interval) || 1;
  const unit = FREQUENCIES[freq];
  let text = n === 1 ? `Every ${unit}` : `Every ${n} ${unit}s`;
  if (freq === "WEEKLY" && v.byday.length > 0) {
    const names = WEEKDAYS.filter(([code]) => v.byday.includes(code)).map(([, name]) => name);
    text += ` on ${names.join(", ")}`;
  }
  if (freq === "MONTHLY") text += ` on day ${v.bymonthday}`;
  text += ` at ${v.at_time} (${v.timezone})`;
  if (v.rule_end === "count") text += `, ${v.count} time${v.count === "1" ? "" : "s"}`;
  if (v.rule_end === "until") text += `, until ${v.until}`;
  return text;
}

const COLOR_FIELDS = ["background_color", "text_color", "accent_color"] as const;

/** Each base theme's colours, as the API fills them in when a look gives none. */
export const THEME_PALETTES: Readonly<
  Record<string, Record<(typeof COLOR_FIELDS)[number], string>>
> = {
  light: {
    background_color: DEFAULT_LOOK.background_color,
    text_color: DEFAULT_LOOK.text_color,
    accent_color: DEFAULT_LOOK.accent_color,
  },
  dark: { ...DARK_PALETTE },
};

/**
 * The colour fields to send: none when they are exactly another base theme's colours (the
 * pickers still show the theme the form started with), so that the chosen theme's colours
 * apply; otherwise the picked ones, which override the theme.
 */
function colorsOf(v: TimerFormValues): Record<string, string> {
  const picked = Object.fromEntries(COLOR_FIELDS.map((f) => [f, v[f].toUpperCase()]));
  const stale = Object.entries(THEME_PALETTES).some(
    ([theme, palette]) =>
      theme !== v.theme && COLOR_FIELDS.every((f) => palette[f].toUpperCase() === picked[f]),
  );
  return stale ? {} : picked;
}

/** The font field's value of an uploaded font: this, then the asset's id. */
export const UPLOADED_FONT = "asset:";

/** The font field as the look's `font` and `font_asset_id` (an upload draws over Sans). */
function fontOf(value: string): Record<string, unknown> {
  return value.startsWith(UPLOADED_FONT)
    ? { font: "sans", font_asset_id: value.slice(UPLOADED_FONT.length) }
    : { font: value };
}

/** The look's `background`: none for the background colour alone. */
function backgroundOf(v: TimerFormValues): Record<string, unknown> | null {
  if (v.background_kind === "gradient") {
    return {
      type: "gradient",
      from: v.gradient_from.toUpperCase(),
      to: v.gradient_to.toUpperCase(),
      angle: num(v.gradient_angle),
    };
  }
  // An image not picked yet is the API's to name ("Background image: ...").
  if (v.background_kind === "image") return { type: "image", asset_id: v.background_image };
  return null;
}

/** A heading or the line below: none while its words are empty. */
function wordsOf(
  text: string,
  font: string,
  size: string,
  color: string,
): Record<string, unknown> | null {
  if (text === "") return null;
  return { text, font: font || null, size: num(size), color: color.toUpperCase() || null };
}

/** The look of the builder's fields, as the API's `look` object. */
function lookOf(v: TimerFormValues): Record<string, unknown> {
  return {
    theme: v.theme,
    ...colorsOf(v),
    ...fontOf(v.font),
    font_size: num(v.font_size),
    units: TIME_UNITS.filter((u) => v.units.includes(u)),
    show_labels: v.show_labels,
    pad: v.pad,
    hide_leading_zero_units: v.hide_leading_zero_units,
    separator: v.separator,
    locale: v.locale,
    labels: v.labels,
    style: v.style,
    background: backgroundOf(v),
    heading: wordsOf(v.heading_text, v.heading_font, v.heading_size, v.heading_color),
    subheading: wordsOf(
      v.subheading_text,
      v.subheading_font,
      v.subheading_size,
      v.subheading_color,
    ),
    button:
      v.button_label === ""
        ? null
        : {
            label: v.button_label,
            font: v.button_font || null,
            size: num(v.button_size),
            color: v.button_color.toUpperCase() || null,
            background_color: v.button_background.toUpperCase() || null,
          },
    transparent: v.transparent,
    dark: v.dark_variant ? {} : null,
    click_url: v.click_url || null,
    // Only a personalized link's start can lie ahead: the builder shows the field for those
    // alone, and the other types keep what the API stored (keep-unshown.ts).
    ...(v.type === "personalized"
      ? { not_started_click_url: v.not_started_click_url || null }
      : {}),
  };
}

/** The POST /timers body the builder's fields describe (validated by the API, not here). */
export function timerBodyOf(v: TimerFormValues): Record<string, unknown> {
  const common = {
    // Only the preview draws a nameless form: saving one is refused first (formErrors).
    name: v.name === "" ? "Untitled timer" : v.name,
    timezone: v.timezone,
    look: lookOf(v),
    ended: {
      text: v.ended_text,
      ...(v.ended_image_url ? { image_url: v.ended_image_url } : {}),
      ...(v.ended_redirect_url ? { redirect_url: v.ended_redirect_url } : {}),
      ...(v.ended_click_url ? { click_url: v.ended_click_url } : {}),
    },
  };
  switch (v.type) {
    case "duration": {
      const seconds =
        (Number(v.duration_days) || 0) * 86_400 +
        (Number(v.duration_hours) || 0) * 3_600 +
        (Number(v.duration_minutes) || 0) * 60;
      return {
        type: "duration",
        ...common,
        duration_seconds: seconds,
        ...(v.not_after_local ? { not_after: deadlineAt(v.not_after_local, v.timezone) } : {}),
        start_on: v.start_on_human ? "first_human_open" : "first_open",
      };
    }
    case "recurring":
      return {
        type: "recurring",
        ...common,
        recurrence: {
          rrule: ruleOf(v),
          dtstart: `${v.starts_on}T${v.at_time}`,
          ended_hold_seconds: (Number(v.hold_minutes) || 0) * 60,
        },
      };
    case "personalized": {
      const fallback_deadline_at = v.fallback_local
        ? deadlineAt(v.fallback_local, v.timezone)
        : null;
      return {
        type: "personalized",
        ...common,
        personalization:
          v.source === "start"
            ? {
                source: "start",
                offset_seconds: Math.round((Number(v.offset_hours) || 0) * 3600),
                require_signature: v.require_signature,
                fallback_deadline_at,
              }
            : { source: "deadline", require_signature: v.require_signature, fallback_deadline_at },
      };
    }
    default:
      return { type: v.type, ...common, deadline_at: deadlineAt(v.deadline_local, v.timezone) };
  }
}

/** An instant as the wall time in `zone`, for a datetime-local field. */
function wallTime(instant: string, zone: string): string {
  const at = Date.parse(instant);
  return new Date(at + zoneOffsetMs(zone, at)).toISOString().slice(0, 16);
}

/** The builder's look fields of a complete look (a timer's, or a saved one). */
export function lookFormValues(look: Look): Partial<TimerFormValues> {
  return {
    theme: look.theme,
    background_color: look.background_color,
    text_color: look.text_color,
    accent_color: look.accent_color,
    font: look.font_asset_id ? `${UPLOADED_FONT}${look.font_asset_id}` : look.font,
    font_size: String(look.font_size),
    units: [...look.units],
    show_labels: look.show_labels,
    pad: look.pad,
    // Looks stored before the option existed lack it: shown, as they were drawn.
    hide_leading_zero_units: look.hide_leading_zero_units ?? false,
    separator: look.separator,
    locale: look.locale,
    labels: { ...look.labels },
    style: look.style,
    ...backgroundFormValues(look.background),
    ...wordsFormValues("heading", look.heading),
    ...wordsFormValues("subheading", look.subheading),
    button_label: look.button?.label ?? "",
    button_font: look.button?.font ?? "",
    button_size: String(look.button?.size ?? LOOK_WORDS_LIMITS.button.size),
    button_color: look.button?.color ?? "",
    button_background: look.button?.background_color ?? "",
    transparent: look.transparent,
    dark_variant: look.dark !== null,
  };
}

/** The background fields of a look's `background` (the gradient's colours stay at their defaults without one). */
function backgroundFormValues(background: Look["background"]): Partial<TimerFormValues> {
  if (background?.type === "gradient") {
    return {
      background_kind: "gradient",
      gradient_from: background.from,
      gradient_to: background.to,
      gradient_angle: String(background.angle),
    };
  }
  if (background?.type === "image") {
    return { background_kind: "image", background_image: background.asset_id };
  }
  return { background_kind: "colour" };
}

/** A heading's or the line below's fields. */
function wordsFormValues(
  kind: "heading" | "subheading",
  words: LookWords | null,
): Partial<TimerFormValues> {
  return {
    [`${kind}_text`]: words?.text ?? "",
    [`${kind}_font`]: words?.font ?? "",
    [`${kind}_size`]: String(words?.size ?? LOOK_WORDS_LIMITS[kind].size),
    [`${kind}_color`]: words?.color ?? "",
  };
}

/** The builder's fields for an existing timer (editing, or building from a copy). */
export function formValuesOf(
  definition: TimerDefinition,
  name: string,
  now: number,
): TimerFormValues {
  const v = defaultFormValues(now);
  Object.assign(v, {
    name,
    type: definition.type,
    timezone: definition.timezone,
    ...lookFormValues(definition.look),
    ended_text: definition.ended.text,
    ended_image_url: definition.ended.image_url ?? "",
    ended_redirect_url: definition.ended.redirect_url ?? "",
    // Looks stored before the click URLs existed lack the fields.
    click_url: definition.look.click_url ?? "",
    not_started_click_url: definition.look.not_started_click_url ?? "",
    ended_click_url: definition.ended.click_url ?? "",
  });
  if (definition.type === "fixed") {
    // A wall-clock deadline is shown as sent; an instant as the wall time in the timer's zone.
    if (definition.deadline_local !== undefined) {
      v.deadline_local = definition.deadline_local.slice(0, 16);
    } else {
      v.deadline_local = wallTime(definition.deadline_at!, definition.timezone);
    }
  } else if (definition.type === "duration") {
    const s = definition.duration_seconds;
    v.duration_days = String(Math.floor(s / 86_400));
    v.duration_hours = String(Math.floor((s % 86_400) / 3600));
    v.duration_minutes = String(Math.floor((s % 3600) / 60));
    if (definition.not_after !== undefined)
      v.not_after_local = wallTime(definition.not_after, definition.timezone);
    v.start_on_human = definition.start_on === "first_human_open";
  } else if (definition.type === "recurring") {
    const rule = new Map(
      definition.recurrence.rrule.split(";").map((p) => p.split("=") as [string, string]),
    );
    v.freq = rule.get("FREQ") ?? "WEEKLY";
    v.interval = rule.get("INTERVAL") ?? "1";
    v.byday = (rule.get("BYDAY") ?? "").split(",").filter(Boolean);
    v.bymonthday = rule.get("BYMONTHDAY") ?? "1";
    const count = rule.get("COUNT");
    const until = rule.get("UNTIL");
    if (count !== undefined) {
      v.rule_end = "count";
      v.count = count;
    } else if (until !== undefined) {
      v.rule_end = "until";
      v.until = `${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`;
    }
    const start = formatLocalDateTime(parseLocalDateTime(definition.recurrence.dtstart)!);
    v.starts_on = start.slice(0, 10);
    v.at_time = start.slice(11, 16);
    v.hold_minutes = String(Math.round(definition.recurrence.ended_hold_seconds / 60));
  } else {
    const p = definition.personalization;
    v.source = p.source;
    v.require_signature = p.require_signature;
    if (p.source === "start") v.offset_hours = String(p.offset_seconds / 3600);
    if (p.fallback_deadline_at)
      v.fallback_local = wallTime(p.fallback_deadline_at, definition.timezone);
  }
  return v;
}
