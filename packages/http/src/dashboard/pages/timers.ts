import { randomUUID } from "node:crypto";
import { type PublicUrls, type TimerDefinition, timerData } from "@tminus/core";
import { ApiError } from "../../errors";
import { dataOf, listOf } from "../api-call";
import type { PageContext } from "../context";
import { html } from "../html";
import { csrfField, page, when } from "../layout";
import { pngSize, previewImage } from "../preview";
import { htmlResponse, redirect } from "../responses";
import { shareSnippets } from "../snippets";
import {
  defaultFormValues,
  formValuesOf,
  keepUnshown,
  readTimerForm,
  timerBodyOf,
} from "../timer-form";
import { TYPE_NAMES, typeName } from "../words";
import { builderForm } from "./builder-form";
import { noticeOf, type PageRoute } from "./route";
import { signedLinksPanel } from "./signed-links";
import { timerRulesSection } from "./webhooks";

interface TimerView {
  id: string;
  name: string;
  type: string;
  status: string;
  revision: string;
  created_at: string;
  updated_at: string;
  urls: PublicUrls | null;
}

const PAGE_SIZE = "20";
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
};

// Sandbox timers cannot be published (as in the API): their notices do not say to.
const SANDBOX_NOTICES: Record<string, string> = {
  ...NOTICES,
  created:
    "Timer created in Sandbox as a draft, to try things out: sandbox timers cannot be published. Build it in Production to use it in emails.",
};

const noticesOf = (ctx: PageContext) =>
  ctx.environment === "production" ? NOTICES : SANDBOX_NOTICES;

function selectFilter(
  name: string,
  label: string,
  current: string,
  values: string[],
  nameOf: (value: string) => string = (v) => v,
) {
  return html`<div><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}"><option value="">Any</option>
${values.map((v) => html`<option value="${v}"${v === current ? html` selected` : ""}>${nameOf(v)}</option>`)}</select></div>`;
}

async function listPage(ctx: PageContext) {
  const q = ctx.req.query;
  const filters = {
    name: q.get("name") ?? "",
    type: q.get("type") ?? "",
    status: q.get("status") ?? "",
  };
  const result = listOf<TimerView>(
    await ctx.api({
      method: "GET",
      path: "/timers",
      query: { ...filters, limit: PAGE_SIZE, cursor: q.get("cursor") ?? undefined },
    }),
  );
  const keep = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ""));
  const rows = result.items.map(
    (
      t,
    ) => html`<tr><td><a href="${ctx.envPath(`/timers/${t.id}`)}">${t.name}</a></td><td>${typeName(t.type)}</td>
<td><span class="badge ${t.status}">${t.status}</span></td><td class="opt">${when(t.created_at)}</td><td class="opt">${when(t.updated_at)}</td></tr>`,
  );
  const content = html`<div class="actions"><a class="button" href="${ctx.envPath("/timers/new")}">Build a timer</a></div>
<form class="panel row" method="get" action="${ctx.envPath("/timers")}" role="search" aria-label="Find timers">
<div><label for="f-name">Name contains</label><input id="f-name" name="name" type="search" value="${filters.name}" maxlength="200"></div>
${selectFilter("type", "Type", filters.type, Object.keys(TYPE_NAMES), typeName)}
${selectFilter("status", "Status", filters.status, ["draft", "published", "archived"])}
<div><button type="submit">Apply</button></div></form>
<div class="table"><table><caption class="sr-only">Timers</caption><thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Status</th><th scope="col" class="opt">Created</th><th scope="col" class="opt">Updated</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="5">No timers match. <a href="${ctx.envPath("/timers/new")}">Build one</a>.</td></tr>`}</tbody></table></div>
<nav class="pager" aria-label="Pages">${q.get("cursor") ? html`<a href="${ctx.envPath(`/timers?${keep}`)}">First page</a>` : ""}
${result.next ? html`<a href="${ctx.envPath(`/timers?${new URLSearchParams([...keep, ["cursor", result.next]])}`)}">Next page</a>` : ""}</nav>`;
  return htmlResponse(
    200,
    page(ctx, {
      title: "Timers",
      section: "/timers",
      content,
      notice: noticeOf(ctx, noticesOf(ctx)),
    }),
  );
}

function builderPage(
  ctx: PageContext,
  values = defaultFormValues(ctx.now),
  error?: string,
  status = 200,
) {
  const content = builderForm(ctx, {
    values,
    action: ctx.envPath("/timers"),
    submit: "Create timer",
    idempotencyKey: ctx.form.get("idempotency_key") ?? randomUUID(),
  });
  return htmlResponse(
    status,
    page(ctx, { title: "Build a timer", section: "/timers", content, error }),
  );
}

/** The form's error as one sentence naming the field. */
function problem(error: ApiError): string {
  const field = (error.details as { field?: string } | undefined)?.field;
  return field && !error.message.includes(field) ? `${field}: ${error.message}` : error.message;
}

async function loadView(ctx: PageContext, id: string): Promise<TimerView> {
  return dataOf<TimerView>(await ctx.api({ method: "GET", path: `/timers/${id}` }));
}

async function timerPage(
  ctx: PageContext,
  id: string,
  deps: Parameters<PageRoute["handle"]>[2],
  extra: { error?: string; status?: number } = {},
) {
  const view = await loadView(ctx, id);
  const record = (await ctx.services.cache.getTimer(ctx.account.id, ctx.environment, id))!;
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
  const timed = view.type === "fixed" || view.type === "duration";
  const actions = html`<div class="actions">
${view.status === "draft" ? (ctx.environment === "production" ? actionForm("publish", "Publish") : html`<span class="hint">Sandbox timers cannot be published; build it in Production to use it.</span>`) : ""}
${live && timed ? actionForm(paused ? "resume" : "pause", paused ? "Resume" : "Pause") : ""}
${live && view.type === "duration" ? actionForm("reset", "Reset every viewer", { confirm: "Every viewer starts again from the full length. Continue?" }) : ""}
${live && view.type !== "recurring" ? actionForm("extend", "Extend", { body: html`<label class="sr-only" for="extend-minutes">Minutes to add</label><input id="extend-minutes" name="minutes" type="number" min="1" value="60" class="short"> <span class="hint">minutes</span> ` }) : ""}
${actionForm("duplicate", "Duplicate")}
${live ? actionForm("archive", "Archive") : ""}${view.status === "archived" ? actionForm("restore", "Restore") : ""}
${actionForm("delete", "Delete", { danger: true, confirm: `Delete "${view.name}" for good? Emails showing it will show "not available".` })}</div>`;
  let share = html``;
  if (view.status === "published" && view.urls) {
    const png = await deps.renderImage("png", {
      remainingSeconds: 0,
      look: definition.look,
      ended: definition.ended,
      width: 600,
    });
    const size = pngSize(png);
    const personal =
      definition.type === "personalized"
        ? {
            source: definition.personalization.source,
            signed: definition.personalization.require_signature,
          }
        : undefined;
    const snippets = shareSnippets({
      name: view.name,
      type: view.type,
      urls: view.urls,
      ...size,
      personal,
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
    share = html`<h2>Share</h2>${snippets.map(
      (
        s,
      ) => html`<section class="panel snippet" aria-labelledby="${s.id}-title"><h3 id="${s.id}-title">${s.title}</h3><p class="hint">${s.hint}</p>
<label class="sr-only" for="${s.id}">${s.title} code</label><textarea id="${s.id}" class="code" readonly rows="${Math.min(8, s.code.split("\n").length + 2)}">${s.code}</textarea>
<button type="button" data-copy="${s.id}" hidden>Copy</button></section>${s.id === "snippet-merge" ? signed : ""}`,
    )}`;
  }
  const content = html`<p><span class="badge ${view.status}">${view.status}</span> ${typeName(view.type)} · revision ${view.revision} · created ${when(view.created_at)}</p>
${actions}${share}${await timerRulesSection(ctx, id)}
<h2>Edit</h2>${builderForm(ctx, {
    values: formValuesOf(definition as TimerDefinition, view.name, ctx.now),
    action: ctx.envPath(`/timers/${id}/edit`),
    submit: "Save changes",
    revision,
    typeFixed: true,
  })}`;
  return htmlResponse(
    extra.status ?? 200,
    page(ctx, {
      title: view.name,
      section: "/timers",
      content,
      notice: noticeOf(ctx, noticesOf(ctx)),
      error: extra.error,
    }),
  );
}

// The actions a timer's page posts: named, so that other forms under a timer (its webhook
// rules) reach their own routes.
const ACTION = "(?<action>publish|pause|resume|extend|reset|archive|restore|duplicate|delete)";

/** Timers: list, builder, a timer's page with its actions, edits, share snippets, preview. */
export const timerRoutes: readonly PageRoute[] = [
  { method: "GET", pattern: /^\/timers$/, handle: listPage },
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
        return builderPage(ctx, values, problem(error), error.status);
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
      const { type, ...change } = timerBodyOf(readTimerForm(ctx.form, ctx.now));
      void type;
      try {
        const record = await ctx.services.cache.getTimer(ctx.account.id, ctx.environment, id!);
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
        return timerPage(ctx, id!, deps, { error: problem(error), status: error.status });
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
        return timerPage(ctx, id!, deps, { error: problem(error), status: error.status });
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
