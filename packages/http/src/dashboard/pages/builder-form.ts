import { TIME_UNITS, timeZoneNames } from "@tminus/core";
import type { PageContext } from "../context";
import { html, type SafeHtml } from "../html";
import { csrfField } from "../layout";
import { type TimerFormValues, WEEKDAYS } from "../timer-form";

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

function text(
  id: string,
  label: string,
  value: string,
  extra: { type?: string; hint?: string; attrs?: SafeHtml } = {},
): SafeHtml {
  return html`<div><label for="${id}">${label}</label>${extra.hint ? html`<p class="hint" id="${id}-hint">${extra.hint}</p>` : ""}
<input id="${id}" name="${id}" type="${extra.type ?? "text"}" value="${value}"${extra.hint ? html` aria-describedby="${id}-hint"` : ""}${extra.attrs ?? ""}></div>`;
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
  },
): SafeHtml {
  const v = input.values;
  const previewUrl = ctx.envPath("/preview.png");
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
  return html`<div class="builder">
<form method="post" action="${input.action}" data-preview="${previewUrl}" aria-describedby="preview-status">
${csrfField(ctx)}${input.idempotencyKey ? html`<input type="hidden" name="idempotency_key" value="${input.idempotencyKey}">` : ""}
${input.revision !== undefined ? html`<input type="hidden" name="revision" value="r${input.revision}">` : ""}
${text("name", "Name", v.name, { attrs: html` maxlength="200" required placeholder="Black Friday sale"` })}
<fieldset><legend>Type</legend>${TYPES.filter(([t]) => !input.typeFixed || t === v.type).map(
    ([t, label, hint]) =>
      html`<label class="check"><input type="radio" name="type" value="${t}"${checked(v.type === t)}> <span><strong>${label}</strong> <span class="hint">${hint}</span></span></label>`,
  )}</fieldset>
<fieldset><legend>When</legend>
<div><label for="timezone">Time zone</label><input id="timezone" name="timezone" type="text" list="zones" value="${v.timezone}" autocomplete="off">
<datalist id="zones">${timeZoneNames.map((z) => html`<option value="${z}">`)}</datalist></div>
<div data-type-section="fixed">${text("deadline_local", "Deadline (in the time zone)", v.deadline_local, { type: "datetime-local" })}</div>
<div data-type-section="duration" class="row">
${text("duration_days", "Days", v.duration_days, { type: "number", attrs: html` min="0" max="366"` })}
${text("duration_hours", "Hours", v.duration_hours, { type: "number", attrs: html` min="0" max="23"` })}
${text("duration_minutes", "Minutes", v.duration_minutes, { type: "number", attrs: html` min="0" max="59"` })}
${text("not_after_local", "Never past (optional)", v.not_after_local, { type: "datetime-local", hint: "No viewer's countdown runs past this time (in the time zone), e.g. the sale's last day." })}</div>
<div data-type-section="recurring">
<div class="row"><div><label for="freq">Repeats</label><select id="freq" name="freq">${options(
    v.freq,
    [
      ["DAILY", "Daily"],
      ["WEEKLY", "Weekly"],
      ["MONTHLY", "Monthly"],
    ],
  )}</select></div>
${text("interval", "Every", v.interval, { type: "number", hint: "1: every day/week/month; 2: every other one", attrs: html` min="1" max="99"` })}
${text("at_time", "At", v.at_time, { type: "time" })}</div>
<fieldset><legend>On (weekly)</legend><div class="checks">${WEEKDAYS.map(
    ([code, name]) =>
      html`<label class="check"><input type="checkbox" name="byday" value="${code}"${checked(v.byday.includes(code))}> ${name}</label>`,
  )}</div></fieldset>
<div class="row">${text("bymonthday", "Day of the month (monthly)", v.bymonthday, { type: "number", attrs: html` min="1" max="31"` })}
${text("starts_on", "Starting", v.starts_on, { type: "date" })}
${text("hold_minutes", "Show the ended look for (minutes)", v.hold_minutes, { type: "number", attrs: html` min="0" max="10080"` })}</div>
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
<div class="row">${text("count", "Times (with “after a number of times”)", v.count, { type: "number", attrs: html` min="1" max="10000"` })}
${text("until", "Last day (with “on a date”)", v.until, { type: "date" })}</div></fieldset></div>
<div data-type-section="personalized">
<div><label for="source">Each link carries</label><select id="source" name="source">${options(
    v.source,
    [
      ["deadline", "the recipient's deadline"],
      ["start", "a start; the deadline is a fixed time later"],
    ],
  )}</select></div>
${text("offset_hours", "Hours from the start (when links carry a start)", v.offset_hours, { type: "number", attrs: html` min="0" step="0.25"` })}
<label class="check"><input type="checkbox" name="require_signature"${checked(v.require_signature)}> Accept only signed links (recipients cannot change their deadline)</label></div>
</fieldset>
<fieldset><legend>Look</legend>
<div class="row"><div><label for="theme">Base theme</label><select id="theme" name="theme">${options(
    v.theme,
    [
      ["light", "Light"],
      ["dark", "Dark"],
    ],
  )}</select></div>
<div><label for="background_color">Background</label><input id="background_color" name="background_color" type="color" value="${v.background_color.toLowerCase()}"></div>
<div><label for="text_color">Digits</label><input id="text_color" name="text_color" type="color" value="${v.text_color.toLowerCase()}"></div>
<div><label for="accent_color">Accent</label><input id="accent_color" name="accent_color" type="color" value="${v.accent_color.toLowerCase()}"></div></div>
<div class="row"><div><label for="font">Font</label><select id="font" name="font">${options(
    v.font,
    [
      ["sans", "Sans serif"],
      ["serif", "Serif"],
      ["mono", "Monospace"],
    ],
  )}</select></div>
${text("font_size", "Digit size (px)", v.font_size, { type: "number", attrs: html` min="8" max="200"` })}
<div><label for="panel">Layout</label><select id="panel" name="panel">${options(v.panel, [
    ["rounded", "Rounded panels"],
    ["plain", "Plain"],
  ])}</select></div>
${text("separator", "Separator", v.separator, { attrs: html` maxlength="3"` })}</div>
<fieldset><legend>Units shown</legend><div class="checks">${TIME_UNITS.map(
    (u) =>
      html`<label class="check"><input type="checkbox" name="units" value="${u}"${checked(v.units.includes(u))}> ${u}</label>`,
  )}</div></fieldset>
<div class="checks"><label class="check"><input type="checkbox" name="show_labels"${checked(v.show_labels)}> Show labels</label>
<label class="check"><input type="checkbox" name="pad"${checked(v.pad)}> Two digits (07)</label>
<label class="check"><input type="checkbox" name="transparent"${checked(v.transparent)}> Transparent background</label>
<label class="check"><input type="checkbox" name="dark_variant"${checked(v.dark_variant)}> Dark variant for dark-mode readers</label></div>
${text("locale", "Label language", v.locale, { hint: "A language tag: en, de, fr, es, ja, ...", attrs: html` maxlength="35"` })}
<details><summary>Own label words</summary><div class="row">${TIME_UNITS.map((u) =>
    text(`label_${u}`, u, v.labels[u] ?? "", { attrs: html` maxlength="40"` }),
  )}</div></details>
</fieldset>
<fieldset><legend>After the end</legend>
${text("ended_text", "Text shown instead of the digits", v.ended_text, { attrs: html` maxlength="200"` })}
${text("ended_image_url", "Image instead (optional)", v.ended_image_url, { type: "url", hint: "An https address: shown on the hosted page and embed, and email images redirect to it.", attrs: html` placeholder="https://"` })}
${text("ended_redirect_url", "Send hosted-page viewers to (optional)", v.ended_redirect_url, { type: "url", attrs: html` placeholder="https://"` })}
<label class="check"><input type="checkbox" name="preview_ended"${checked(v.preview_ended)}> Show the ended look in the preview</label>
</fieldset>
<p><button type="submit">${input.submit}</button></p></form>
<aside class="preview panel" aria-labelledby="preview-title"><h2 id="preview-title">Preview</h2>
<img id="preview-image" src="${previewUrl}?${query.toString()}" alt="Preview of the countdown as it would look now" width="600">
<p id="preview-status" class="hint" role="status">Updates as you type. Previews are not saved, published or counted.</p></aside></div>`;
}
