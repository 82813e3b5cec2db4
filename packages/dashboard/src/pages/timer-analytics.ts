import { timerData } from "@tminus/core";
import {
  CLIENT_FAMILIES,
  type ClientFamily,
  REQUEST_SOURCES,
  type RequestSource,
} from "@tminus/store";
import { dataOf, listOf } from "../api-call";
import type { PageContext } from "../context";
import { html } from "../html";
import { page } from "../layout";
import { htmlResponse } from "../responses";
import { lastUtcDays } from "../utc-days";
import { viewsChart } from "../views-chart";
import { plural } from "../words";
import { zoneAbbreviation, zoneDay, zoneTime } from "../zone-time";
import type { PageRoute } from "./route";

// A timer's analytics, read through the API's GET /timers/{id}/analytics as the signed-in
// user: views and unique viewers per day for the last 30 days (a chart and its table), and
// the views by email client family. The API counts per UTC day (a viewer's hash is salted
// per UTC day, docs/analytics.md), so the days are UTC days; each row also says when that
// day starts in the timer's zone.

/** Days the page covers, today included (the API keeps 90 by default). */
const DAYS = 30;

interface Bucket {
  start: string;
  views: number;
  unique_viewers: number;
  by_client: Record<ClientFamily, number>;
  by_source: Record<RequestSource, number>;
}

/** What a row of a share table is called: a name, and a hint of what it means. */
type Label = readonly [name: string, hint: string];

/** Each email client family as a marketer knows it, with what it means (docs/analytics.md). */
const FAMILY_NAMES: Readonly<Record<ClientFamily, Label>> = {
  gmail: ["Gmail", "through Google's image proxy, which caches: a lower bound"],
  apple_mail: ["Apple Mail", "Mail Privacy Protection loads images on delivery, read or not"],
  outlook: ["Outlook", "desktop and mobile apps"],
  yahoo: ["Yahoo and AOL Mail", "through Yahoo's image proxy"],
  other: ["Other", "browsers (hosted page, embed, Outlook.com), other clients"],
};

/** Who fetched the images, as a marketer knows it (docs/analytics.md). */
const SOURCE_NAMES: Readonly<Record<RequestSource, Label>> = {
  human: ["Readers' own apps", "the mail app or browser of the person reading"],
  proxy: ["Image proxies", "Gmail, Yahoo and others fetch for the reader who opens"],
  prefetch: [
    "Privacy prefetches",
    "Apple Mail Privacy Protection, on delivery: not proof that anyone read it",
  ],
};

const percent = (n: number, total: number) =>
  total === 0 ? "—" : `${Math.round((n / total) * 1000) / 10} %`;

/** A row of a share table: what it counts, its views, and their share of `total`. */
const shareRow = ([name, hint]: Label, views: number, total: number) =>
  html`<tr><th scope="row">${name}<br><span class="hint">${hint}</span></th><td>${views}</td><td>${percent(views, total)}</td></tr>`;

async function analyticsPage(ctx: PageContext, id: string) {
  const view = dataOf<{ name: string }>(await ctx.api({ method: "GET", path: `/timers/${id}` }));
  const record = (await ctx.admin.timer(ctx.account.id, ctx.environment, id))!;
  const zone = timerData(record).definition.timezone;
  const { starts, end } = lastUtcDays(ctx.now, DAYS);
  // 30 day buckets fit in one page of the API's list (at most 100).
  const { items } = listOf<Bucket>(
    await ctx.api({
      method: "GET",
      path: `/timers/${id}/analytics`,
      query: {
        granularity: "day",
        from: new Date(starts[0]!).toISOString(),
        to: new Date(end).toISOString(),
        limit: String(DAYS),
      },
    }),
  );
  const byStart = new Map(items.map((b) => [Date.parse(b.start), b]));
  const days = starts.map((start) => {
    const b = byStart.get(start);
    const date = new Date(start).toISOString().slice(0, 10);
    const machine = (b?.by_source.proxy ?? 0) + (b?.by_source.prefetch ?? 0);
    const label = zoneDay(date);
    return { start, label, views: b?.views ?? 0, unique: b?.unique_viewers ?? 0, machine };
  });
  // The table lists the days with views (the chart has all of them): 30 rows of zeros
  // would bury the ones that count, on a phone most of all.
  const seen = days.filter((d) => d.views > 0).reverse();
  const total = days.reduce((n, d) => n + d.views, 0);
  const clients = CLIENT_FAMILIES.map((family) => ({
    family,
    views: items.reduce((n, b) => n + (b.by_client[family] ?? 0), 0),
  }));
  const sources = REQUEST_SOURCES.map((source) => ({
    source,
    views: items.reduce((n, b) => n + (b.by_source[source] ?? 0), 0),
  }));
  const human = sources[0]!.views;
  const busiest = days.reduce((a, d) => (d.views > a.views ? d : a), days[0]!);
  const now = days.at(-1)!;
  const abbreviation = zoneAbbreviation(ctx.now, zone);
  const content = html`<p><a href="${ctx.envPath(`/timers/${id}`)}">Back to the timer</a></p>
<p>Public views of this timer (email image, hosted page, embed) in the last ${DAYS} days, up to ${zoneTime(ctx.now, zone)}. Looking at it here counts nothing.</p>
<div class="cards"><section class="card" aria-labelledby="c-total"><h2 id="c-total">Views, ${DAYS} days</h2><p class="n">${total}</p></section>
<section class="card" aria-labelledby="c-today"><h2 id="c-today">Today (UTC)</h2><p class="n">${now.views}</p><p>${plural(now.unique, "unique viewer")}</p></section>
<section class="card" aria-labelledby="c-human"><h2 id="c-human">Readers' own apps</h2><p class="n">${human}</p><p>${total === 0 ? "no views yet" : `${percent(total - human, total)} through proxies and prefetches`}</p></section>
<section class="card" aria-labelledby="c-busiest"><h2 id="c-busiest">Busiest day</h2><p class="n">${busiest.views}</p><p>${busiest.views > 0 ? busiest.label : "no views yet"}</p></section></div>
<figure class="panel">${viewsChart(days, "views-chart-title", `Views and unique viewers per day, last ${DAYS} days`)}
<figcaption class="hint">Days are UTC days: unique viewers are counted per UTC day and cannot be split by the timer's own days. Each row below says when its day starts in ${zone} (${abbreviation} now).</figcaption></figure>
<h2 id="per-day">Days with views</h2>
<div class="table"><table aria-labelledby="per-day"><thead><tr><th scope="col">Day (UTC)</th><th scope="col">Starts in the timer's zone</th><th scope="col">Views</th><th scope="col">Unique viewers</th></tr></thead>
<tbody>${
    seen.length
      ? seen.map(
          (d) =>
            html`<tr><th scope="row">${d.label}</th><td>${zoneTime(d.start, zone)}</td><td>${d.views}</td><td>${d.unique}</td></tr>`,
        )
      : html`<tr><td colspan="4">No views in the last ${DAYS} days.</td></tr>`
  }</tbody></table></div>
${seen.length ? html`<p class="hint">Newest first; the other days of the ${DAYS} had no views.</p>` : ""}
<h2 id="sources">Who fetched the images</h2>
<p class="hint">Image proxies fetch for a reader who opens the email; a privacy prefetch fetches whether or not anyone reads it (docs/email.md).</p>
<div class="table"><table aria-labelledby="sources"><thead><tr><th scope="col">Fetched by</th><th scope="col">Views</th><th scope="col">Share</th></tr></thead>
<tbody>${sources.map((c) => shareRow(SOURCE_NAMES[c.source], c.views, total))}</tbody></table></div>
<h2 id="clients">Email clients</h2>
<p class="hint">From how each image was fetched (docs/analytics.md): a heuristic, not proof of an open.</p>
<div class="table"><table aria-labelledby="clients"><thead><tr><th scope="col">Client</th><th scope="col">Views</th><th scope="col">Share</th></tr></thead>
<tbody>${clients.map((c) => shareRow(FAMILY_NAMES[c.family], c.views, total))}</tbody></table></div>`;
  return htmlResponse(
    200,
    page(ctx, { title: `Analytics: ${view.name}`, section: "/timers", content }),
  );
}

/** A timer's analytics page, under its own page. */
export const timerAnalyticsRoutes: readonly PageRoute[] = [
  {
    method: "GET",
    pattern: /^\/timers\/(?<id>[0-9a-f-]{36})\/analytics$/,
    handle: (ctx, { id }) => analyticsPage(ctx, id!),
  },
];
