import { randomUUID } from "node:crypto";
import { type PublicUrls, type TimerDefinition, timerData } from "@tminus/core";
import { ApiError } from "@tminus/http";
import { StoreError } from "@tminus/store";
import { dataOf } from "../api-call";
import type { PageContext } from "../context";
import { endedWarnings, type FieldProblem, formErrors, formProblemOf } from "../form-problems";
import { html, type SafeHtml } from "../html";
import { keepUnshown } from "../keep-unshown";
import { csrfField, page } from "../layout";
import { lookPreset, withPreset } from "../look-presets";
import { previewImage } from "../preview";
import { htmlResponse, redirect } from "../responses";
import { LOOK_NAME_MAX, lookOf, savedLooks, withSavedLook } from "../saved-looks";
import { defaultAlts, shareOptionsOf } from "../share-options";
import { personalOf, shareSnippets } from "../snippets";
import {
  defaultFormValues,
  formValuesOf,
  readTimerForm,
  type TimerFormValues,
  timerBodyOf,
} from "../timer-form";
import { typeName } from "../words";
import { inZone, zoneTime } from "../zone-time";
import { fontLabel, listAssets } from "./assets";
import { builderForm, type UploadedFontChoice, type UploadedImageChoice } from "./builder-form";
import { startFromLook } from "./gallery";
import { noticeOf, type PageRoute } from "./route";
import { sharePanel } from "./share-panel";
import { signedLinksPanel } from "./signed-links";
import { emailImageSize, endsCell, listPage, thumbnail, timerNow } from "./timer-list";
import { timerRulesSection } from "./webhooks";

interface TimerView {
  id: string;
  name: string;
  type: string;
  status: string;
  timezone: string;
  revision: string;
  created_at: string;
  updated_at: string;
  urls: PublicUrls | null;
}

const ID = "(?<id>[0-9a-f-]{36})";

const NOTICES: Record<string, string> = {
  created: "Timer created. It is a draft: publish it to show it in emails and pages.",

  saved: "Changes saved.",
  published: "Published. Copy a snippet below into your email or page.",
  archived: "Archived: it no longer shows anywhere.",
  restored: "Restored as it was.",
  paused: "Paused.",
  resumed: "Running again.",
  extended: "Extended.",
  reset: "Reset: every viewer starts again.",
  duplicated: "This is the copy, as a draft.",
  deleted: "Timer deleted.",
  "look-saved": "Look saved. It is in the gallery under Looks, to start new timers from.",
};

// Sandbox timers cannot be published (as in the API): their notices do not say to.
const SANDBOX_NOTICES: Record<string, string> = {
  ...NOTICES,
  created:
    "Timer created in Sandbox as a draft, to try things out: sandbox timers cannot be published. Build it in Production to use it in emails.",
};

const noticesOf = (ctx: PageContext) =>
  ctx.environment === "production" ? NOTICES : SANDBOX_NOTICES;

/** A builder that comes back with problems: what was typed, each problem by its field. */
interface Refused {
  /** What was typed; none when the refusal is not of the form (an action's). */
  values?: TimerFormValues;
  problems: FieldProblem[];
  /** A problem no field shows (a changed revision...), said at the top only. */
  message?: string;
  status: number;
}

/** The environment's uploads for the builder: fonts for its font list, images as backgrounds. */
async function uploadChoices(
  ctx: PageContext,
): Promise<{ fonts: UploadedFontChoice[]; images: UploadedImageChoice[] }> {
  const items = await listAssets(ctx);
  return {
    fonts: items.filter((a) => a.kind === "font").map((f) => ({ id: f.id, label: fontLabel(f) })),
    images: items
      .filter((a) => a.kind === "image")
      .map((i) => ({ id: i.id, label: `${i.name} (${i.width} × ${i.height})` })),
  };
}

/** The gallery look the page was opened with (`?look=` ready, `?saved=` saved), if any. */
async function chosenLook(ctx: PageContext) {
  const preset = lookPreset(ctx.req.query.get("look"));
  const savedId = ctx.req.query.get("saved");
  const saved = savedId ? ((await savedLooks(ctx)).find((s) => s.id === savedId) ?? null) : null;
  const look = saved && lookOf(saved);
  return {
    preset: look ? null : preset,
    saved: look ? saved : null,
    /** `values` with the chosen look's fields. */
    apply: (values: TimerFormValues) =>
      look ? withSavedLook(values, look) : preset ? withPreset(values, preset) : values,
  };
}

async function builderPage(ctx: PageContext, refused?: Refused) {
  const chosen = await chosenLook(ctx);
  const start = chosen.apply(defaultFormValues(ctx.now));
  const content = html`${refused ? "" : startFromLook(ctx, chosen)}${builderForm(ctx, {
    values: refused?.values ?? start,
    action: ctx.envPath("/timers"),
    submit: "Create timer",
    idempotencyKey: ctx.form.get("idempotency_key") ?? randomUUID(),
    problems: refused?.problems,
    zoneFromBrowser: !refused,
    ...(await uploadChoices(ctx)),
  })}`;
  return htmlResponse(
    refused?.status ?? 200,
    page(ctx, {
      title: "Build a timer",
      section: "/timers",
      content,
      notice: refused ? null : noticeOf(ctx, noticesOf(ctx)),
      error: refused && summaryOf(refused, "created"),
    }),
  );
}

/** The alert at the top of a refused form: what to check, each linked to its field. */
function summaryOf(refused: Refused, done: "created" | "saved"): SafeHtml | string {
  if (refused.message) return refused.message;
  const links = refused.problems.map((p) => html`<a href="#${p.id}">${p.label}</a>`);
  const list = links.flatMap((link, i) => (i === 0 ? [link] : [", ", link]));
  return refused.problems.every((p) => p.warning)
    ? html`Check before it is ${done}: ${list}. Tick “Create it anyway” to create it as it is.`
    : html`The timer was not ${done}. Check: ${list}.`;
}

/** An API refusal as the form's problem, by its field when the builder shows that field. */
function refusal(error: ApiError, values: TimerFormValues): Refused {
  const field = (error.details as { field?: string } | undefined)?.field;
  const problem = field ? formProblemOf(field, error.message) : null;
  return problem
    ? { values, problems: [problem], status: error.status }
    : { values, problems: [], message: error.message, status: error.status };
}

async function loadView(ctx: PageContext, id: string): Promise<TimerView> {
  return dataOf<TimerView>(await ctx.api({ method: "GET", path: `/timers/${id}` }));
}

async function timerPage(
  ctx: PageContext,
  id: string,
  deps: Parameters<PageRoute["handle"]>[2],
  refused?: Refused,
) {
  const view = await loadView(ctx, id);
  const record = (await ctx.admin.timer(ctx.account.id, ctx.environment, id))!;
  const { definition } = timerData(record);
  const revision = Number(view.revision.slice(1));
  const paused = timerData(record).clock.paused_at !== null;
  const actionForm = (
    name: string,
    label: string,
    opts: { danger?: boolean; confirm?: string; body?: unknown } = {},
  ) =>
    html`<form class="inline" method="post" action="${ctx.envPath(`/timers/${id}/${name}`)}"${opts.confirm ? html` data-confirm="${opts.confirm}"` : ""}>
${csrfField(ctx)}<input type="hidden" name="revision" value="${view.revision}">${opts.body ?? ""}<button type="submit"${opts.danger ? html` class="danger"` : html` class="secondary"`}>${label}</button></form>`;
  const live = view.status === "draft" || view.status === "published";
  // A draft shows nowhere, so there is nothing to pause: Pause is offered once it is published.
  const timed = view.type === "fixed" || view.type === "duration";
  const actions = html`<div class="actions">
${view.status === "draft" ? (ctx.environment === "production" ? actionForm("publish", "Publish") : html`<span class="hint">Sandbox timers cannot be published; build it in Production to use it.</span>`) : ""}
${timed && paused && live ? actionForm("resume", "Resume") : ""}${timed && !paused && view.status === "published" ? actionForm("pause", "Pause") : ""}
${live && view.type === "duration" ? actionForm("reset", "Reset every viewer", { confirm: "Every viewer starts again from the full length. Continue?" }) : ""}
${live && view.type !== "recurring" ? actionForm("extend", "Extend", { body: html`<label class="sr-only" for="extend-minutes">Minutes to add</label><input id="extend-minutes" name="minutes" type="number" min="1" value="60" class="short"> <span class="hint">minutes</span> ` }) : ""}
${actionForm("duplicate", "Duplicate")}
${live ? actionForm("archive", "Archive") : ""}${view.status === "archived" ? actionForm("restore", "Restore") : ""}
${actionForm("delete", "Delete", { danger: true, confirm: `Delete "${view.name}" for good? Emails showing it will show "not available".` })}</div>`;
  let sharing = html``;
  if (view.status === "published" && view.urls) {
    const natural = await emailImageSize(definition, deps);
    const personal = personalOf(definition);
    const share = shareOptionsOf(ctx.req.query, natural.width, {
      dark: definition.look.dark !== null,
    });
    // The height the image is drawn at for the chosen width (the look's height does not
    // scale with the width): the attributes must say the drawn proportions.
    const size = await emailImageSize(definition, deps, share.width);
    // An evergreen image without a recipient counts from the timer's start (a reset, or its
    // publication): said with its date, which stays true.
    const { clock } = timerData(record);
    const started = clock.started_at ?? clock.published_at;
    const sharedStart = started === null ? undefined : inZone(started, definition.timezone);
    const alts = defaultAlts(await timerNow(ctx, id), sharedStart ?? null);
    const snippets = shareSnippets({
      type: view.type,
      urls: view.urls,
      ...size,
      alt: share.alt ?? alts,
      share,
      personal,
      sharedStart,
    });
    const secret = timerData(record).signing_secret;
    const signed =
      personal?.signed && secret
        ? signedLinksPanel(ctx, {
            urls: view.urls,
            source: personal.source,
            secret,
            zone: definition.timezone,
          })
        : "";
    sharing = sharePanel({
      action: ctx.envPath(`/timers/${id}`),
      urls: view.urls,
      snippets,
      share,
      defaultAlt: alts.recipient,
      perRecipient: view.type === "duration" || personal !== undefined,
      personalized: personal !== undefined,
      extra: signed,
    });
  }
  const zone = definition.timezone;
  const chosen = await chosenLook(ctx);
  const content = html`<p><span class="badge ${view.status}">${view.status}</span> ${typeName(view.type)} · revision ${view.revision} · created ${zoneTime(view.created_at, zone)} · changed ${zoneTime(view.updated_at, zone)}</p>
<p class="ends"><strong>Ends:</strong> ${endsCell(await timerNow(ctx, id), ctx.now)}</p>
<p><a href="${ctx.envPath(`/timers/${id}/analytics`)}">Analytics: views per day and email clients</a></p>
${actions}
<form class="panel row save-look" method="post" action="${ctx.envPath(`/timers/${id}/save-look`)}">${csrfField(ctx)}<div><label for="look_name">Save this look as</label><input id="look_name" name="look_name" type="text" required placeholder="Brand, spring" aria-describedby="look_name-hint"><p class="hint" id="look_name-hint">1 to ${LOOK_NAME_MAX} characters.</p></div><div><button type="submit" class="secondary">Save look</button></div></form>
${sharing}${await timerRulesSection(ctx, id)}
<h2 id="edit">Edit</h2>${refused ? "" : startFromLook(ctx, chosen, id)}${builderForm(ctx, {
    // A refused edit shows what was typed, not the stored timer; a look chosen in the
    // gallery fills the look's fields of the stored one.
    values:
      refused?.values ??
      chosen.apply(formValuesOf(definition as TimerDefinition, view.name, ctx.now)),
    action: ctx.envPath(`/timers/${id}/edit`),
    submit: "Save changes",
    revision,
    typeFixed: true,
    problems: refused?.problems,
    ...(await uploadChoices(ctx)),
  })}`;
  return htmlResponse(
    refused?.status ?? 200,
    page(ctx, {
      title: view.name,
      section: "/timers",
      content,
      notice: noticeOf(ctx, noticesOf(ctx)),
      error: refused && summaryOf(refused, "saved"),
    }),
  );
}

// The actions a timer's page posts: named, so that other forms under a timer (its webhook
// rules) reach their own routes.
const ACTION = "(?<action>publish|pause|resume|extend|reset|archive|restore|duplicate|delete)";

/** Saves the timer's look under the typed name (a name saved before is replaced). */
async function saveLook(ctx: PageContext, id: string, deps: Parameters<PageRoute["handle"]>[2]) {
  const name = (ctx.form.get("look_name") ?? "").trim();
  const refuse = (message: string) =>
    timerPage(ctx, id, deps, { problems: [], message, status: 422 });
  if (name === "") return refuse("Save this look as: give it a name.");
  // Refused, never cut: the name typed is the one saved, or none.
  if (name.length > LOOK_NAME_MAX) {
    return refuse(
      `Save this look as: the name has ${name.length} characters; at most ${LOOK_NAME_MAX} fit. Shorten it.`,
    );
  }
  const record = await ctx.admin.timer(ctx.account.id, ctx.environment, id);
  if (!record) throw new ApiError("not_found", "no such timer");
  try {
    await ctx.admin.looks.saveLook({
      id: randomUUID(),
      account_id: ctx.account.id,
      environment: ctx.environment,
      name,
      look: JSON.stringify(timerData(record).definition.look),
      now: ctx.now,
    });
  } catch (error) {
    if (!(error instanceof StoreError) || error.code !== "limit_reached") throw error;
    return refuse(`${error.message} in ${ctx.environment}: delete one under Looks first.`);
  }
  return redirect(`${ctx.envPath(`/timers/${id}`)}?notice=look-saved`);
}

/** Timers: list, builder, a timer's page with its actions, edits, share snippets, preview. */
export const timerRoutes: readonly PageRoute[] = [
  {
    method: "POST",
    pattern: new RegExp(`^/timers/${ID}/save-look$`),
    handle: (ctx, { id }, deps) => saveLook(ctx, id!, deps),
  },
  {
    method: "GET",
    pattern: /^\/timers$/,
    handle: (ctx, _params, deps) => listPage(ctx, deps, noticesOf(ctx)),
  },
  {
    method: "GET",
    pattern: new RegExp(`^/timers/${ID}/thumbnail\\.png$`),
    handle: (ctx, { id }, deps) => thumbnail(ctx, id!, deps),
  },
  { method: "GET", pattern: /^\/timers\/new$/, handle: async (ctx) => builderPage(ctx) },
  {
    method: "GET",
    pattern: /^\/preview\.png$/,
    handle: (ctx, _params, deps) => previewImage(ctx, deps),
  },
  {
    method: "POST",
    pattern: /^\/timers$/,
    async handle(ctx) {
      const values = readTimerForm(ctx.form, ctx.now);
      // A blank name or a colour that is none stops it; a timer that would start ended asks.
      const errors = formErrors(values);
      const warnings = ctx.form.get("accept_ended") === "on" ? [] : endedWarnings(values, ctx.now);
      if (errors.length > 0 || warnings.length > 0) {
        return builderPage(ctx, { values, problems: [...errors, ...warnings], status: 422 });
      }
      try {
        const created = dataOf<TimerView>(
          await ctx.api({
            method: "POST",
            path: "/timers",
            body: timerBodyOf(values),
            headers: { "idempotency-key": ctx.form.get("idempotency_key") ?? randomUUID() },
          }),
        );
        return redirect(`${ctx.envPath(`/timers/${created.id}`)}?notice=created`);
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500 || error.code === "not_found")
          throw error;
        return builderPage(ctx, refusal(error, values));
      }
    },
  },
  {
    method: "GET",
    pattern: new RegExp(`^/timers/${ID}$`),
    handle: (ctx, { id }, deps) => timerPage(ctx, id!, deps),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/timers/${ID}/edit$`),
    async handle(ctx, { id }, deps) {
      const values = readTimerForm(ctx.form, ctx.now);
      const errors = formErrors(values);
      if (errors.length > 0) {
        return timerPage(ctx, id!, deps, { values, problems: errors, status: 422 });
      }
      const { type, ...change } = timerBodyOf(values);
      void type;
      try {
        const record = await ctx.admin.timer(ctx.account.id, ctx.environment, id!);
        const stored = record ? (timerData(record).definition as TimerDefinition) : null;
        await ctx.api({
          method: "PATCH",
          path: `/timers/${id}`,
          body: stored ? keepUnshown(stored, change) : change,
          headers: { "if-match": ctx.form.get("revision") ?? "" },
        });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500 || error.code === "not_found")
          throw error;
        return timerPage(ctx, id!, deps, refusal(error, values));
      }
      return redirect(`${ctx.envPath(`/timers/${id}`)}?notice=saved`);
    },
  },
  {
    method: "POST",
    pattern: new RegExp(`^/timers/${ID}/${ACTION}$`),
    async handle(ctx, { id, action }, deps) {
      const revision = { "if-match": ctx.form.get("revision") ?? "" };
      try {
        if (action === "duplicate") {
          const copy = dataOf<TimerView>(
            await ctx.api({
              method: "POST",
              path: `/timers/${id}/duplicate`,
              headers: { "idempotency-key": randomUUID() },
            }),
          );
          return redirect(`${ctx.envPath(`/timers/${copy.id}`)}?notice=duplicated`);
        }
        if (action === "delete") {
          await ctx.api({ method: "DELETE", path: `/timers/${id}`, headers: revision });
          return redirect(`${ctx.envPath("/timers")}?notice=deleted`);
        }
        const minutes = Number(ctx.form.get("minutes"));
        await ctx.api({
          method: "POST",
          path: `/timers/${id}/${action}`,
          headers: revision,
          body:
            action === "extend"
              ? { seconds: Number.isFinite(minutes) ? Math.round(minutes * 60) : 0 }
              : undefined,
        });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500 || error.code === "not_found")
          throw error;
        return timerPage(ctx, id!, deps, {
          problems: [],
          message: error.message,
          status: error.status,
        });
      }
      const done = {
        publish: "published",
        pause: "paused",
        resume: "resumed",
        extend: "extended",
        reset: "reset",
        archive: "archived",
        restore: "restored",
      }[action!];
      return redirect(`${ctx.envPath(`/timers/${id}`)}?notice=${done}`);
    },
  },
];
