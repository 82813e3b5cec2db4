// The gallery of looks: the ready looks (look-presets.ts) and the account's saved ones, each
// drawn by the renderer, to start a new timer from or to give an existing timer. Choosing one
// opens the builder with the look's fields filled in; nothing is stored until it is saved.
import {
  computeStatus,
  emptyClock,
  imageInputOf,
  type TimerDefinition,
  validateTimerCreate,
} from "@tminus/core";
import type { ApiResponse } from "@tminus/http";
import type { SavedLook } from "@tminus/store";
import type { PageContext } from "../context";
import type { DashboardDeps } from "../deps";
import { html, type SafeHtml } from "../html";
import { csrfField, page } from "../layout";
import { LOOK_PRESETS, type LookPreset, lookPreset, withPreset } from "../look-presets";
import { htmlResponse, jsonResponse, redirect } from "../responses";
import { lookOf, savedLooks, withSavedLook } from "../saved-looks";
import { defaultFormValues, type TimerFormValues, timerBodyOf } from "../timer-form";
import { formQuery, STYLE_CHOICES } from "./builder-form";
import { noticeOf, type PageRoute } from "./route";

const ID = "(?<id>[0-9a-f-]{36})";

/** What a ready look's picture shows: 2 days 14:25:08 left, so rings and bars are part full. */
const SAMPLE_LEFT_MS = ((2 * 24 + 14) * 3600 + 25 * 60 + 8) * 1000;
/** A fixed "now" for the pictures, so each is drawn once and is the same every time. */
const SAMPLE_NOW = Date.parse("2026-01-05T09:00:00Z");

const NOTICES: Record<string, string> = {
  "look-deleted": "Saved look deleted. Timers made from it keep their look.",
};

/** Each dashboard's drawn pictures of the ready looks, by look id (they never change). */
const pictures = new WeakMap<DashboardDeps, Map<string, Promise<Uint8Array>>>();

/** The timer a ready look's picture shows: a fixed timer named after the look. */
function sampleDefinition(preset: LookPreset): TimerDefinition {
  const values = { ...withPreset(defaultFormValues(SAMPLE_NOW), preset), name: preset.name };
  const checked = validateTimerCreate(timerBodyOf(values));
  // A ready look the API refuses is a bug of this file: the unit test draws every one.
  if (!checked.ok) throw new Error(`ready look ${preset.id}: ${checked.issues[0]?.message}`);
  return checked.value;
}

/** A ready look drawn by the renderer at its sample time (600 px wide PNG), drawn once. */
export function presetPicture(deps: DashboardDeps, preset: LookPreset): Promise<Uint8Array> {
  const drawn = pictures.get(deps) ?? new Map<string, Promise<Uint8Array>>();
  pictures.set(deps, drawn);
  let picture = drawn.get(preset.id);
  if (!picture) {
    const definition = sampleDefinition(preset);
    const target = computeStatus({ definition, clock: emptyClock() }, SAMPLE_NOW).target_at!;
    const status = computeStatus({ definition, clock: emptyClock() }, target - SAMPLE_LEFT_MS);
    picture = deps.renderImage("png", imageInputOf(definition, status, { width: 600 }));
    // A failed drawing (a full render queue) is not kept: the next visit draws it again.
    picture.catch(() => drawn.delete(preset.id));
    drawn.set(preset.id, picture);
  }
  return picture;
}

/** The words a look's tags say: its style, background and words. */
function tagsOf(v: Pick<TimerFormValues, "style" | "background_kind"> & Partial<TimerFormValues>) {
  const style = STYLE_CHOICES.find(([s]) => s === v.style)?.[1].split(":")[0] ?? v.style;
  return [
    style,
    v.background_kind === "gradient" ? "gradient" : v.background_kind === "image" ? "image" : "",
    v.heading_text ? "heading" : "",
    v.subheading_text ? "line below" : "",
    v.button_label ? "button" : "",
  ].filter(Boolean);
}

/** One look of the gallery: its picture, name, what it is for, and what it has. */
function card(
  href: string,
  src: string,
  label: { name: string; about: string; tags: string[]; current: boolean },
): SafeHtml {
  return html`<a href="${href}"${label.current ? html` aria-current="true"` : ""}><img src="${src}" alt="" width="600"><strong>${label.name}</strong><span class="hint">${label.about}</span><span class="tags">${label.tags.map((t) => html`<span>${t}</span>`)}</span></a>`;
}

/** Where choosing a look leads: a new timer's builder, or the timer being edited. */
function chooseHref(ctx: PageContext, timerId: string | null, query: string): string {
  return timerId
    ? ctx.envPath(`/timers/${timerId}?${query}#edit`)
    : ctx.envPath(`/timers/new?${query}`);
}

async function galleryPage(ctx: PageContext): Promise<ApiResponse> {
  // Choosing for a timer of this account and environment; any other id is no timer.
  const forId = ctx.req.query.get("for") ?? "";
  const timer = /^[0-9a-f-]{36}$/.test(forId)
    ? await ctx.admin.timer(ctx.account.id, ctx.environment, forId)
    : null;
  const forName = timer?.id ?? null;
  const saved = await savedLooks(ctx);
  const base = defaultFormValues(ctx.now);
  const ready = LOOK_PRESETS.map((p) => {
    const values = withPreset(base, p);
    return html`<li>${card(chooseHref(ctx, forName, `look=${p.id}`), ctx.envPath(`/looks/${p.id}.png`), { name: p.name, about: p.about, tags: tagsOf(values), current: false })}</li>`;
  });
  const own = saved.flatMap((s) => {
    const look = lookOf(s);
    if (!look) return [];
    const values = { ...withSavedLook(base, look), name: s.name };
    return [
      html`<li>${card(chooseHref(ctx, forName, `saved=${s.id}`), ctx.envPath(`/preview.png?${formQuery(values)}`), { name: s.name, about: "saved look", tags: tagsOf(values), current: false })}
<form method="post" action="${ctx.envPath(`/looks/${s.id}/delete`)}" data-confirm="${`Delete the saved look "${s.name}"? Timers made from it keep their look.`}">${csrfField(ctx)}<button type="submit" class="secondary">Delete<span class="sr-only"> ${s.name}</span></button></form></li>`,
    ];
  });
  const intro = forName
    ? html`<p>Choosing a look for <a href="${ctx.envPath(`/timers/${forName}`)}">${timer!.name}</a>: its edit form opens with the look filled in, and nothing changes until you save it.</p>`
    : html`<p>Pick a look to start a new timer from; the builder opens with it filled in, and you can change anything. Save a timer's look under a name on its page to see it here.</p>`;
  const content = html`${intro}
<p class="hint">Each picture is drawn by the same renderer as the email images, at 2 days 14:25:08 left.</p>
<section aria-labelledby="ready-looks"><h2 id="ready-looks">Ready looks</h2>
<ul class="looks gallery" aria-labelledby="ready-looks">${ready}</ul></section>
<section aria-labelledby="saved-looks"><h2 id="saved-looks">Saved looks</h2>
${own.length ? html`<ul class="looks gallery" aria-labelledby="saved-looks">${own}</ul>` : html`<p>None yet. On a timer's page, “Save this look as” keeps its whole look under a name.</p>`}</section>`;
  return htmlResponse(
    200,
    page(ctx, { title: "Looks", section: "/looks", content, notice: noticeOf(ctx, NOTICES) }),
  );
}

/** The builder's pointer to the gallery, with the look it was started from. */
export function startFromLook(
  ctx: PageContext,
  chosen: { preset: LookPreset | null; saved: SavedLook | null },
  timerId?: string,
): SafeHtml {
  const name = chosen.preset?.name ?? chosen.saved?.name;
  const gallery = ctx.envPath(timerId ? `/looks?for=${timerId}` : "/looks");
  return html`<p class="start-look">${name ? html`The look of <strong>${name}</strong> is filled in below${timerId ? ": save the changes to keep it" : ""}. ` : ""}<a href="${gallery}">${name ? "Choose another look" : timerId ? "Choose a look from the gallery" : `Start from a look: ${LOOK_PRESETS.length} ready looks and your saved ones`}</a></p>`;
}

/** The gallery page, the ready looks' pictures and deleting a saved look. */
export const galleryRoutes: readonly PageRoute[] = [
  { method: "GET", pattern: /^\/looks$/, handle: (ctx) => galleryPage(ctx) },
  {
    method: "GET",
    pattern: /^\/looks\/(?<id>[a-z0-9-]{1,40})\.png$/,
    async handle(_ctx, { id }, deps) {
      const preset = lookPreset(id!);
      if (!preset) return jsonResponse(404, { message: "No such look." });
      return {
        status: 200,
        headers: { "content-type": "image/png", "cache-control": "private, no-store" },
        body: await presetPicture(deps, preset),
      };
    },
  },
  {
    method: "POST",
    pattern: new RegExp(`^/looks/${ID}/delete$`),
    async handle(ctx, { id }) {
      await ctx.admin.looks.deleteLook({
        account_id: ctx.account.id,
        environment: ctx.environment,
        id: id!,
      });
      return redirect(`${ctx.envPath("/looks")}?notice=look-deleted`);
    },
  },
];
