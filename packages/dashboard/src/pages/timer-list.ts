import {
  computeStatus,
  imageInputOf,
  type PublicUrls,
  type TimerDefinition,
  type TimerStatusResult,
  timerData,
} from "@tminus/core";
import type { ApiResponse } from "@tminus/http";
import { listOf } from "../api-call";
import type { PageContext } from "../context";
import type { DashboardDeps } from "../deps";
import { html, type SafeHtml } from "../html";
import { csrfField, page } from "../layout";
import { pngSize, sampleViewer, withUploads } from "../preview";
import { htmlResponse, jsonResponse } from "../responses";
import { defaultAlt, shareOptionsOf } from "../share-options";
import { personalOf, shareSnippets } from "../snippets";
import { TYPE_NAMES, typeName } from "../words";
import { zoneTime } from "../zone-time";
import { noticeOf } from "./route";

// The timer list, built for finding a campaign: a live thumbnail, when it ends in its own
// zone and the time left, its status, and the row's actions. The filter form is a plain GET
// form; the script turns it into a search as you type (it fetches this same page and swaps
// the results in).

/** A timer as GET /timers lists it (the fields the list shows). */
interface ListedTimer {
  id: string;
  name: string;
  type: string;
  status: string;
  urls: PublicUrls | null;
}

/** A timer's definition and where it stands now. */
export interface TimerNow {
  definition: TimerDefinition;
  status: TimerStatusResult;
  paused: boolean;
}

const PAGE_SIZE = "20";
/** The thumbnail's drawn width: shown at half of it, so that it is sharp on 2x screens. */
const THUMBNAIL_WIDTH = 240;

/** "6 d 17 h", "20 h 30 min", "5 min", "under a minute": a length, to its two largest units. */
export function timeLeft(seconds: number): string {
  if (seconds < 60) return "under a minute";
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return h > 0 ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  return `${m} min`;
}

/** A timer's definition and its status now (a sample viewer's for the per-viewer types). */
export async function timerNow(ctx: PageContext, id: string): Promise<TimerNow | null> {
  const record = await ctx.admin.timer(ctx.account.id, ctx.environment, id);
  if (!record) return null;
  const { definition, clock } = timerData(record);
  const def = definition as TimerDefinition;
  const viewer = sampleViewer(def, ctx.now);
  return {
    definition: def,
    status: computeStatus({ definition: def, clock, viewer }, ctx.now),
    paused: clock.paused_at !== null,
  };
}

/** The "Ends" cell: the end (or the next occurrence) in the timer's zone, and the time left. */
export function endsCell(at: TimerNow | null, now: number): SafeHtml {
  if (!at) return html`—`;
  const { definition, status, paused } = at;
  const zone = definition.timezone;
  if (definition.type === "duration") {
    const cap = definition.not_after;
    return html`Each viewer gets ${timeLeft(definition.duration_seconds)}${cap ? html`<br><span class="hint">never past ${zoneTime(cap, zone)}</span>` : ""}`;
  }
  if (definition.type === "personalized") return html`Each recipient's own deadline`;
  const next = definition.type === "recurring" ? (status.next_occurrence_at ?? null) : null;
  const target = definition.type === "recurring" ? next : status.target_at;
  if (target === null) {
    return html`${definition.type === "recurring" ? "No occurrence left" : "—"}<br><span class="hint">ended</span>`;
  }
  const prefix = definition.type === "recurring" ? "next: " : "";
  const left = target <= now ? "ended" : `${timeLeft((target - now) / 1000)} left`;
  return html`${prefix}${zoneTime(target, zone)}<br><span class="hint">${paused ? `paused, ${left}` : left}</span>`;
}

/** The row's status: the timer's (draft, published, archived) and, if not running, why. */
function statusCell(t: ListedTimer, at: TimerNow | null): SafeHtml {
  const extra = at?.paused ? "paused" : at?.status.ended ? "ended" : null;
  return html`<span class="badge ${t.status}">${t.status}</span>${extra ? html` <span class="badge">${extra}</span>` : ""}`;
}

// The email image's size depends on the look and ended look only, not on the time: a list of
// 20 published timers draws each look once, not on every visit. Bounded; emptied when full.
const SIZES_KEPT = 256;
const sizes = new Map<string, Promise<{ width: number; height: number }>>();

/**
 * The width and height of a timer's email image drawn `width` px wide (600 by default), as
 * the share panel's snippet says: the height is the look's, whatever the width.
 */
export function emailImageSize(definition: TimerDefinition, deps: DashboardDeps, width = 600) {
  const key = JSON.stringify([definition.look, definition.ended, width]);
  let size = sizes.get(key);
  if (!size) {
    if (sizes.size >= SIZES_KEPT) sizes.clear();
    size = deps
      .renderImage("png", {
        remainingSeconds: 0,
        look: definition.look,
        ended: definition.ended,
        width,
      })
      .then(pngSize);
    // A failed drawing (a full render queue) is not kept: the next visit tries again.
    size.catch(() => sizes.delete(key));
    sizes.set(key, size);
  }
  return size;
}

/** The first snippet of the timer's share panel, for the row's copy button (published only). */
async function emailSnippet(
  t: ListedTimer,
  at: TimerNow | null,
  deps: DashboardDeps,
): Promise<string | null> {
  if (t.status !== "published" || !t.urls || !at) return null;
  const { definition } = at;
  const size = await emailImageSize(definition, deps);
  const personal = personalOf(definition);
  // The panel's defaults: 600 px, Mailchimp, the dark picture when the look has a dark variant.
  const share = shareOptionsOf(new URLSearchParams(), size.width, {
    dark: definition.look.dark !== null,
  });
  const [first] = shareSnippets({
    ...t,
    urls: t.urls,
    ...size,
    alt: defaultAlt(at),
    share,
    personal,
  });
  return first?.code ?? null;
}

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

/** GET /timers: the filter form and a page of timers. */
export async function listPage(
  ctx: PageContext,
  deps: DashboardDeps,
  notices: Record<string, string>,
): Promise<ApiResponse> {
  const q = ctx.req.query;
  const filters = {
    name: q.get("name") ?? "",
    type: q.get("type") ?? "",
    status: q.get("status") ?? "",
  };
  const result = listOf<ListedTimer>(
    await ctx.api({
      method: "GET",
      path: "/timers",
      query: { ...filters, limit: PAGE_SIZE, cursor: q.get("cursor") ?? undefined },
    }),
  );
  const keep = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ""));
  const rows = await Promise.all(
    result.items.map(async (t) => {
      const at = await timerNow(ctx, t.id);
      const open = ctx.envPath(`/timers/${t.id}`);
      const snippet = await emailSnippet(t, at, deps);
      return html`<tr><td class="thumb"><a href="${open}" tabindex="-1" aria-hidden="true"><img src="${ctx.envPath(`/timers/${t.id}/thumbnail.png`)}" alt="" width="120" loading="lazy"></a></td>
<td><a href="${open}">${t.name}</a><br><span class="hint">${typeName(t.type)}</span></td>
<td>${endsCell(at, ctx.now)}</td><td>${statusCell(t, at)}</td>
<td><div class="row-actions"><a class="button secondary" href="${open}" aria-label="Open ${t.name}">Open</a>
${snippet ? html`<textarea id="row-snippet-${t.id}" hidden readonly>${snippet}</textarea><button type="button" class="secondary" data-copy="row-snippet-${t.id}" aria-label="Copy email snippet of ${t.name}" hidden>Copy email snippet</button>` : ""}
<form class="inline" method="post" action="${ctx.envPath(`/timers/${t.id}/duplicate`)}">${csrfField(ctx)}<button type="submit" class="secondary" aria-label="Duplicate ${t.name}">Duplicate</button></form></div></td></tr>`;
    }),
  );
  const content = html`<div class="actions"><a class="button" href="${ctx.envPath("/timers/new")}">Build a timer</a></div>
<form class="panel row" method="get" action="${ctx.envPath("/timers")}" role="search" aria-label="Find timers" data-live-search="timer-results">
<div><label for="f-name">Name contains</label><input id="f-name" name="name" type="search" value="${filters.name}" maxlength="200" autocomplete="off"></div>
${selectFilter("type", "Type", filters.type, Object.keys(TYPE_NAMES), typeName)}
${selectFilter("status", "Status", filters.status, ["draft", "published", "archived"])}
<div><button type="submit">Apply</button></div></form>
<div id="timer-results"><p class="sr-only" data-count>${rows.length === 1 ? "1 timer" : `${rows.length} timers`}${result.next ? " on this page" : ""}</p>
<div class="table"><table class="timers"><caption class="sr-only">Timers</caption><thead><tr><th scope="col"><span class="sr-only">Preview</span></th><th scope="col">Name</th><th scope="col">Ends (in its time zone)</th><th scope="col">Status</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="5">No timers match. <a href="${ctx.envPath("/timers/new")}">Build one</a>.</td></tr>`}</tbody></table></div>
<nav class="pager" aria-label="Pages">${q.get("cursor") ? html`<a href="${ctx.envPath(`/timers?${keep}`)}">First page</a>` : ""}
${result.next ? html`<a href="${ctx.envPath(`/timers?${new URLSearchParams([...keep, ["cursor", result.next]])}`)}">Next page</a>` : ""}</nav></div>`;
  return htmlResponse(
    200,
    page(ctx, { title: "Timers", section: "/timers", content, notice: noticeOf(ctx, notices) }),
  );
}

/**
 * A row's thumbnail: the timer drawn at this second, small. Drawn here rather than taken from
 * the public image so that looking at the list counts no views and spends nothing, and so
 * that drafts and archived timers (which the public image does not show) have one too.
 */
export async function thumbnail(
  ctx: PageContext,
  id: string,
  deps: DashboardDeps,
): Promise<ApiResponse> {
  const at = await timerNow(ctx, id);
  if (!at) return jsonResponse(404, { message: "No such timer." });
  const input = await withUploads(
    ctx,
    deps,
    at.definition,
    imageInputOf(at.definition, at.status, { width: THUMBNAIL_WIDTH }),
  );
  const bytes = await deps.renderImage("png", input);
  return {
    status: 200,
    headers: { "content-type": "image/png", "cache-control": "private, no-store" },
    body: bytes,
  };
}
