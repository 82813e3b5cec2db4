import type { SavedLook } from "@tminus/store";
import type { PageContext } from "../context";
import { html, type SafeHtml } from "../html";
import { csrfField } from "../layout";
import { LOOK_PRESETS, type LookPreset, withPreset } from "../look-presets";
import { lookOf, withSavedLook } from "../saved-looks";
import { defaultFormValues, type TimerFormValues } from "../timer-form";
import { formQuery } from "./builder-form";

/** One look to start from: its picture as the preview draws it, its name, a line about it. */
function lookChoice(
  ctx: PageContext,
  href: string,
  values: TimerFormValues,
  label: { name: string; about: string; current: boolean },
): SafeHtml {
  const preview = formQuery(values);
  return html`<a href="${href}"${label.current ? html` aria-current="true"` : ""}><img src="${ctx.envPath(`/preview.png?${preview}`)}" alt="" width="600" loading="lazy"><strong>${label.name}</strong><span class="hint">${label.about}</span></a>`;
}

/** The built-in looks and the account's saved ones to start from, each drawn by the preview. */
export function lookPicker(
  ctx: PageContext,
  saved: readonly SavedLook[],
  chosen: { preset: LookPreset | null; saved: SavedLook | null },
): SafeHtml {
  const base = defaultFormValues(ctx.now);
  const presets = LOOK_PRESETS.map(
    (p) =>
      html`<li>${lookChoice(ctx, ctx.envPath(`/timers/new?look=${p.id}`), { ...withPreset(base, p), name: p.name }, { name: p.name, about: p.about, current: p === chosen.preset })}</li>`,
  );
  const own = saved.flatMap((s) => {
    const look = lookOf(s);
    if (!look) return [];
    return [
      html`<li>${lookChoice(ctx, ctx.envPath(`/timers/new?saved=${s.id}`), { ...withSavedLook(base, look), name: s.name }, { name: s.name, about: "saved look", current: s.id === chosen.saved?.id })}
<form method="post" action="${ctx.envPath(`/looks/${s.id}/delete`)}" data-confirm="${`Delete the saved look "${s.name}"? Timers made from it keep their look.`}">${csrfField(ctx)}<button type="submit" class="secondary">Delete<span class="sr-only"> ${s.name}</span></button></form></li>`,
    ];
  });
  return html`<section class="panel" aria-labelledby="looks-title"><h2 id="looks-title">Start from a look</h2>
<p class="hint">Built-in looks that read well in light and dark email apps${saved.length ? ", and your saved ones" : ""}. Pick one, then change anything. Save a timer's look from its page.</p>
<ul class="looks" aria-label="Built-in looks">${presets}</ul>
${own.length ? html`<h3 id="saved-looks">Saved looks</h3><ul class="looks" aria-labelledby="saved-looks">${own}</ul>` : ""}</section>`;
}
