import { TIME_UNITS, timeZoneNames, UNIT_LABEL_MAX } from "@tminus/core";
import type { PageContext } from "../context";
import { ENDED_TEXT_MAX, FALLBACK_EMPTY, type FieldProblem, NAME_MAX } from "../form-problems";
import { html, type SafeHtml } from "../html";
import { csrfField } from "../layout";
import { THEME_PALETTES, type TimerFormValues, UPLOADED_FONT, WEEKDAYS } from "../timer-form";

const TYPES = [
  ["fixed", "Fixed deadline", "Counts down to one date and time."],
  ["duration", "Evergreen", "Each viewer gets the same length from their first view."],
  ["recurring", "Recurring", "Counts to the next occurrence: every Friday at 17:00, ..."],
  ["personalized", "Personalized", "Each recipient's deadline comes from their link."],
] as const;

const checked = (on: boolean) => (on ? html` checked` : "");
const selected = (on: boolean) => (on ? html` selected` : "");

function options(current: string, list: readonly (readonly [string, string])[]): SafeHtml[] {
  return list.map(
    ([value, label]) =>
      html`<option value="${value}"${selected(value === current)}>${label}</option>`,
  );
}

/** An uploaded font the builder offers: its id and the name people know it by. */
export interface UploadedFontChoice {
  id: string;
  label: string;
}

/**
 * The font list: the built-in families, then the environment's uploads (value `asset:<id>`).
 * A look whose upload was deleted keeps it, said to be drawn in the built-in font.
 */
function fontChoices(
  current: string,
  fonts: readonly UploadedFontChoice[],
): Array<readonly [string, string]> {
  const list: Array<readonly [string, string]> = [
    ["sans", "Sans serif"],
    ["serif", "Serif"],
    ["mono", "Monospace"],
    ...fonts.map((f) => [`${UPLOADED_FONT}${f.id}`, `${f.label} (uploaded)`] as const),
  ];
  if (current.startsWith(UPLOADED_FONT) && !list.some(([value]) => value === current))
    list.push([current, "Deleted upload (shows as Sans serif)"]);
  return list;
}

/** A problem's note, right after its field, and the attributes that tie the field to it. */
function problemNote(problem: FieldProblem | undefined): {
  note: SafeHtml | "";
  attrs: SafeHtml | "";
} {
  if (!problem) return { note: "", attrs: "" };
  const kind = problem.warning ? "field-warning" : "field-error";
  return {
    note: html`<p class="${kind}" id="${problem.id}-problem"${problem.whileEmpty ? html` data-while-empty="${problem.id}"` : ""}><strong>${problem.label}:</strong> ${problem.message}</p>`,
    attrs: problem.warning ? "" : html` aria-invalid="true"`,
  };
}

interface TextExtra {
  type?: string;
  hint?: string;
  attrs?: SafeHtml;
  problem?: FieldProblem;
}

function text(id: string, label: string, value: string, extra: TextExtra = {}): SafeHtml {
  const { note, attrs } = problemNote(extra.problem);
  const described = [extra.hint ? `${id}-hint` : "", extra.problem ? `${id}-problem` : ""]
    .filter(Boolean)
    .join(" ");
  return html`<div><label for="${id}">${label}</label>${extra.hint ? html`<p class="hint" id="${id}-hint">${extra.hint}</p>` : ""}
<input id="${id}" name="${id}" type="${extra.type ?? "text"}" value="${value}"${described ? html` aria-describedby="${described}"` : ""}${attrs}${extra.attrs ?? ""}>${note}</div>`;
}

/**
 * A colour: a text field for the hex value (the one submitted, so it works without script)
 * and a picker the script shows and keeps in step with it.
 */
function colour(id: string, label: string, value: string, problem?: FieldProblem): SafeHtml {
  const { note, attrs } = problemNote(problem);
  const picker = /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : "#000000";
  return html`<div class="colour"><label for="${id}">${label}</label><div class="colour-pair">
<input type="color" id="${id}-picker" value="${picker}" aria-label="${label}: pick a colour" data-colour-for="${id}" hidden>
<input id="${id}" name="${id}" type="text" class="hex" value="${value}" maxlength="7" placeholder="#RRGGBB" spellcheck="false" autocomplete="off" inputmode="text" aria-describedby="${id}-hint${problem ? ` ${id}-problem` : ""}"${attrs}></div>
<p class="sr-only" id="${id}-hint">A colour as #RRGGBB</p>${note}</div>`;
}

/** The form's values as the query the preview image reads (what the form would send). */
export function formQuery(v: TimerFormValues): URLSearchParams {
  const query = new URLSearchParams();
  const flat: Record<string, string | string[] | boolean> = { ...v } as never;
  for (const [k, value] of Object.entries(flat)) {
    if (k === "labels") continue;
    if (Array.isArray(value)) for (const one of value) query.append(k, one);
    else if (typeof value === "boolean") {
      if (value) query.set(k, "on");
    } else query.set(k, value);
  }
  for (const [unit, label] of Object.entries(v.labels)) query.set(`label_${unit}`, label);
  return query;
}

/**
 * The timer builder: type, schedule (per type), look and ended state, beside a live preview.
 * Without script every section shows and the preview is the saved one; with it, only the
 * chosen type's section shows and the preview follows every keystroke.
 */
export function builderForm(
  ctx: PageContext,
  input: {
    values: TimerFormValues;
    action: string;
    submit: string;
    /** The Idempotency-Key of a create: a double submit makes one timer. */
    idempotencyKey?: string;
    /** Editing: the revision the change applies to (If-Match). */
    revision?: number;
    /** The type cannot change once a timer exists. */
    typeFixed?: boolean;
    /** What is wrong with the values (shown next to each field), warnings included. */
    problems?: readonly FieldProblem[];
    /** A new timer's zone is the browser's until the person picks one (set by the script). */
    zoneFromBrowser?: boolean;
    /** The environment's uploaded fonts, offered after the built-in ones. */
    fonts?: readonly UploadedFontChoice[];
  },
): SafeHtml {
  const v = input.values;
  const byId = new Map((input.problems ?? []).map((p) => [p.id, p]));
  const field = (id: string, label: string, value: string, extra: TextExtra = {}) =>
    text(id, label, value, { ...extra, problem: byId.get(id) ?? extra.problem });
  const noteOf = (id: string) => problemNote(byId.get(id));
  const warned = (input.problems ?? []).some((p) => p.warning);
  const previewUrl = ctx.envPath("/preview.png");
  const query = formQuery(v);
  return html`<div class="builder">
<form method="post" action="${input.action}" data-preview="${previewUrl}" data-now="${ctx.now}" aria-describedby="preview-status">
${csrfField(ctx)}${input.idempotencyKey ? html`<input type="hidden" name="idempotency_key" value="${input.idempotencyKey}">` : ""}
${input.revision !== undefined ? html`<input type="hidden" name="revision" value="r${input.revision}">` : ""}
${field("name", "Name", v.name, { hint: `Up to ${NAME_MAX} characters; only you see it.`, attrs: html` aria-required="true" placeholder="Black Friday sale"` })}
<fieldset><legend>Type</legend>${TYPES.filter(([t]) => !input.typeFixed || t === v.type).map(
    ([t, label, hint]) =>
      html`<label class="check"><input type="radio" name="type" value="${t}"${checked(v.type === t)}> <span><strong>${label}</strong> <span class="hint">${hint}</span></span></label>`,
  )}</fieldset>
<fieldset><legend>When</legend>
<div><label for="timezone">Time zone</label><input id="timezone" name="timezone" type="text" list="zones" value="${v.timezone}" autocomplete="off"${input.zoneFromBrowser ? html` data-browser-zone` : ""}${noteOf("timezone").attrs}>
<datalist id="zones">${timeZoneNames.map((z) => html`<option value="${z}">`)}</datalist>${noteOf("timezone").note}</div>
<div data-type-section="fixed">${field("deadline_local", "Ends at", v.deadline_local, { type: "datetime-local", hint: "In the timer's time zone." })}</div>
<div data-type-section="duration" class="row">
${field("duration_days", "Days", v.duration_days, { type: "number", attrs: html` min="0" max="366"` })}
${field("duration_hours", "Hours", v.duration_hours, { type: "number", hint: "48 hours is 2 days: any number of hours is fine.", attrs: html` min="0"` })}
${field("duration_minutes", "Minutes", v.duration_minutes, { type: "number", attrs: html` min="0"` })}
${field("not_after_local", "Never past (optional)", v.not_after_local, { type: "datetime-local", hint: "No viewer's countdown runs past this time (in the time zone), e.g. the sale's last day." })}
<label class="check"><input type="checkbox" name="start_on_human"${checked(v.start_on_human)}> <span>Start at the reader's first open, not at delivery <span class="hint">Apple Mail fetches every image when the email arrives (Mail Privacy Protection): that fetch is shown the full time and starts nothing.</span></span></label></div>
<div data-type-section="recurring">
<div class="row"><div><label for="freq">Repeats</label>${noteOf("freq").note}<select id="freq" name="freq">${options(
    v.freq,
    [
      ["DAILY", "Daily"],
      ["WEEKLY", "Weekly"],
      ["MONTHLY", "Monthly"],
    ],
  )}</select></div>
${field("interval", "Every", v.interval, { type: "number", hint: "1: every day/week/month; 2: every other one", attrs: html` min="1" max="99"` })}
${field("at_time", "At", v.at_time, { type: "time" })}</div>
<fieldset><legend>On (weekly)</legend><div class="checks">${WEEKDAYS.map(
    ([code, name]) =>
      html`<label class="check"><input type="checkbox" name="byday" value="${code}"${checked(v.byday.includes(code))}> ${name}</label>`,
  )}</div></fieldset>
<div class="row">${field("bymonthday", "Day of the month (monthly)", v.bymonthday, { type: "number", attrs: html` min="1" max="31"` })}
${field("starts_on", "Starting", v.starts_on, {
  type: "date",
  hint: "The first day the rule counts from, in the timer's time zone: today unless you pick a later day.",
  // A new timer's start follows the time zone until it is picked (the script keeps it today).
  attrs: input.typeFixed ? undefined : html` data-today`,
})}
${field("hold_minutes", "Show the ended look for (minutes)", v.hold_minutes, { type: "number", attrs: html` min="0" max="10080"` })}</div>
<fieldset><legend>Ends</legend><div class="checks">${(
    [
      ["never", "Never"],
      ["count", "After a number of times"],
      ["until", "On a date"],
    ] as const
  ).map(
    ([value, label]) =>
      html`<label class="check"><input type="radio" name="rule_end" value="${value}"${checked(v.rule_end === value)}> ${label}</label>`,
  )}</div>
<div class="row">${field("count", "Times (with “after a number of times”)", v.count, { type: "number", attrs: html` min="1" max="10000"` })}
${field("until", "Last day (with “on a date”)", v.until, { type: "date" })}</div></fieldset></div>
<div data-type-section="personalized">
<div><label for="source">Each link carries</label>${noteOf("source").note}<select id="source" name="source">${options(
    v.source,
    [
      ["deadline", "the recipient's deadline"],
      ["start", "a start; the deadline is a fixed time later"],
    ],
  )}</select></div>
${field("offset_hours", "Hours from the start (when links carry a start)", v.offset_hours, { type: "number", attrs: html` min="0" step="0.25"` })}
<label class="check"><input type="checkbox" name="require_signature"${checked(v.require_signature)}> Accept only signed links (recipients cannot change their deadline)</label>
${field("fallback_local", "Fallback deadline (recommended)", v.fallback_local, {
  type: "datetime-local",
  hint: "In the timer's time zone. Shown when a link has no valid deadline of its own: test sends and previews (merge tags left unfilled), a contact without the field, a missing or wrong signature.",
  problem: byId.get("fallback_local") ?? (v.fallback_local === "" ? FALLBACK_EMPTY : undefined),
})}</div>
</fieldset>
<fieldset><legend>Look</legend>
<div class="row"><div><label for="theme">Base theme</label><select id="theme" name="theme" data-palettes="${JSON.stringify(THEME_PALETTES)}">${options(
    v.theme,
    [
      ["light", "Light"],
      ["dark", "Dark"],
    ],
  )}</select></div>
${colour("background_color", "Background", v.background_color.toLowerCase(), byId.get("background_color"))}
${colour("text_color", "Digits", v.text_color.toLowerCase(), byId.get("text_color"))}
${colour("accent_color", "Accent", v.accent_color.toLowerCase(), byId.get("accent_color"))}</div>
<div class="row"><div><label for="font">Font</label><select id="font" name="font">${options(
    v.font,
    fontChoices(v.font, input.fonts ?? []),
  )}</select></div>
${field("font_size", "Digit size (px)", v.font_size, { type: "number", attrs: html` min="8" max="200"` })}
<div><label for="panel">Layout</label><select id="panel" name="panel">${options(v.panel, [
    ["rounded", "Rounded panels"],
    ["plain", "Plain"],
  ])}</select></div>
${field("separator", "Separator", v.separator, { attrs: html` maxlength="3"` })}</div>
<fieldset id="units"><legend>Units shown</legend>${noteOf("units").note}<div class="checks">${TIME_UNITS.map(
    (u) =>
      html`<label class="check"><input type="checkbox" name="units" value="${u}"${checked(v.units.includes(u))}> ${u}</label>`,
  )}</div></fieldset>
<div class="checks"><label class="check"><input type="checkbox" name="show_labels"${checked(v.show_labels)}> Show labels</label>
<label class="check"><input type="checkbox" name="pad"${checked(v.pad)}> Two digits (07)</label>
<label class="check"><input type="checkbox" name="hide_leading_zero_units"${checked(v.hide_leading_zero_units)}> Hide units while they are zero (“0 days 05 hours” shows “05 hours”)</label>
<label class="check"><input type="checkbox" name="transparent"${checked(v.transparent)}> Transparent background</label>
<label class="check"><input type="checkbox" name="dark_variant"${checked(v.dark_variant)}> Dark variant for dark-mode readers</label></div>
${field("locale", "Label language", v.locale, { hint: "A language tag: en, de, fr, es, ja, ...", attrs: html` maxlength="35"` })}
<details><summary>Own label words</summary><div class="row">${TIME_UNITS.map((u) =>
    field(`label_${u}`, u, v.labels[u] ?? "", { attrs: html` maxlength="${UNIT_LABEL_MAX}"` }),
  )}</div></details>
</fieldset>
<fieldset><legend>Where the email's link leads</legend>
<p class="hint">The snippets wrap the image in a link that follows the timer. Empty: the timer's hosted page, which shows the same countdown.</p>
${field("click_url", "While it runs", v.click_url, { type: "url", hint: "Your sale or offer page, e.g. https://shop.example/sale", attrs: html` placeholder="https://"` })}
<div data-type-section="personalized">${field("not_started_click_url", "Before it starts", v.not_started_click_url, { type: "url", hint: "For links that carry a start still in the future: a teaser page.", attrs: html` placeholder="https://"` })}</div>
${field("ended_click_url", "After the end", v.ended_click_url, { type: "url", hint: "An “offer ended” page, or your next offer.", attrs: html` placeholder="https://"` })}
</fieldset>
<fieldset><legend>After the end</legend>
${field("ended_text", "Text shown instead of the digits", v.ended_text, { hint: `Up to ${ENDED_TEXT_MAX} characters.` })}
${field("ended_image_url", "Image instead (optional)", v.ended_image_url, { type: "url", hint: "An https address of your own picture, at the countdown's size: email images show it (they redirect to it) once a recipient's countdown has ended, and so do the hosted page and embed.", attrs: html` placeholder="https://"` })}
${field("ended_redirect_url", "Send hosted-page viewers to (optional)", v.ended_redirect_url, { type: "url", hint: "Once it has ended, the hosted page sends its visitors here.", attrs: html` placeholder="https://"` })}
<label class="check"><input type="checkbox" name="preview_ended"${checked(v.preview_ended)}> Show the ended look in the preview</label>
</fieldset>
${warned ? html`<label class="check"><input type="checkbox" name="accept_ended"> Create it anyway: it shows the ended look from the start</label>` : ""}
<p><button type="submit">${input.submit}</button></p></form>
<aside class="preview panel" aria-labelledby="preview-title"><h2 id="preview-title">Preview</h2>
<img id="preview-image" src="${previewUrl}?${query.toString()}" alt="Preview of the countdown as it would look now" width="600">
<p id="preview-status" class="hint" role="status">Updates as you type. Previews are not saved, published or counted.</p></aside></div>`;
}
