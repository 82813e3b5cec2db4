import { timerData } from "@tminus/core";
import {
  analyticsRange,
  type Bucket,
  campaignsTable,
  clickDays,
  clickThroughOf,
  csvDownload,
  DAYS,
  daysOf,
  downloads,
  FAMILY_NAMES,
  percent,
  SOURCE_NAMES,
  STATE_NAMES,
  shareTable,
  sumsOf,
  type Total,
  totalsOf,
} from "../analytics-parts";
import { dataOf, listOf } from "../api-call";
import type { PageContext } from "../context";
import { html } from "../html";
import { page } from "../layout";
import { htmlResponse } from "../responses";
import { clicksChart, viewsChart } from "../views-chart";
import { plural } from "../words";
import { zoneAbbreviation, zoneTime } from "../zone-time";
import type { PageRoute } from "./route";

// A timer's analytics, read through the API's GET /timers/{id}/analytics as the signed-in
// user: views and unique viewers per day for the last 30 days (a chart and its table), the
// clicks on its link per day with the click-through, the views by email client family, the
// sends told apart by campaign, and both as CSV. The API counts per UTC day (a viewer's hash
// is salted per UTC day, docs/analytics.md), so the days are UTC days; each row also says
// when that day starts in the timer's zone.

async function analyticsPage(ctx: PageContext, id: string) {
  const view = dataOf<{ name: string }>(await ctx.api({ method: "GET", path: `/timers/${id}` }));
  const record = (await ctx.admin.timer(ctx.account.id, ctx.environment, id))!;
  const zone = timerData(record).definition.timezone;
  const { starts, query } = analyticsRange(ctx.now);
  // 30 day buckets fit in one page of the API's list (at most 100).
  const { items } = listOf<Bucket>(
    await ctx.api({
      method: "GET",
      path: `/timers/${id}/analytics`,
      query: { ...query, limit: String(DAYS) },
    }),
  );
  const campaigns = await totalsOf<Total & { campaign: string }>(
    ctx,
    `/timers/${id}/analytics/campaigns`,
    ctx.now,
    20,
  );
  const days = daysOf(starts, items);
  // The table lists the days with views or clicks (the charts have all of them): 30 rows of
  // zeros would bury the ones that count, on a phone most of all.
  const seen = days.filter((d) => d.views > 0 || d.clicks > 0).reverse();
  const total = days.reduce((n, d) => n + d.views, 0);
  const clicks = days.reduce((n, d) => n + d.clicks, 0);
  const sums = sumsOf(items);
  const human = sums.sources[0]![1];
  const busiest = days.reduce((a, d) => (d.views > a.views ? d : a), days[0]!);
  const now = days.at(-1)!;
  const abbreviation = zoneAbbreviation(ctx.now, zone);
  const base = ctx.envPath(`/timers/${id}/analytics`);
  const content = html`<p><a href="${ctx.envPath(`/timers/${id}`)}">Back to the timer</a> · <a href="${ctx.envPath("/analytics")}">All timers' analytics</a></p>
<p>Public views of this timer (email image, hosted page, embed) and clicks on its link in the last ${DAYS} days, up to ${zoneTime(ctx.now, zone)}. Looking at it here counts nothing.</p>
<div class="cards"><section class="card" aria-labelledby="c-total"><h2 id="c-total">Views, ${DAYS} days</h2><p class="n">${total}</p></section>
<section class="card" aria-labelledby="c-today"><h2 id="c-today">Today (UTC)</h2><p class="n">${now.views}</p><p>${plural(now.unique, "unique viewer")}</p></section>
<section class="card" aria-labelledby="c-human"><h2 id="c-human">Readers' own apps</h2><p class="n">${human}</p><p>${total === 0 ? "no views yet" : `${percent(total - human, total)} through proxies and prefetches`}</p></section>
<section class="card" aria-labelledby="c-clicks"><h2 id="c-clicks">Clicks, ${DAYS} days</h2><p class="n">${clicks}</p><p>click-through ${clickThroughOf(days)}</p></section>
<section class="card" aria-labelledby="c-busiest"><h2 id="c-busiest">Busiest day</h2><p class="n">${busiest.views}</p><p>${busiest.views > 0 ? busiest.label : "no views yet"}</p></section></div>
${downloads(base)}
<figure class="panel">${viewsChart(days, "views-chart-title", `Views and unique viewers per day, last ${DAYS} days`)}
<figcaption class="hint">Days are UTC days: unique viewers are counted per UTC day and cannot be split by the timer's own days. Each row below says when its day starts in ${zone} (${abbreviation} now).</figcaption></figure>
<figure class="panel">${clicksChart(clickDays(days), "clicks-chart-title", `Clicks on the timer's link per day, last ${DAYS} days`)}
<figcaption class="hint">Click-through: the readers' clicks per reader who saw the timer (readers' own apps only, each day's unique viewers added up).</figcaption></figure>
<h2 id="per-day">Days with views or clicks</h2>
<div class="table"><table aria-labelledby="per-day"><thead><tr><th scope="col">Day (UTC)</th><th scope="col">Starts in the timer's zone</th><th scope="col">Views</th><th scope="col">Unique viewers</th><th scope="col">Clicks</th></tr></thead>
<tbody>${
    seen.length
      ? seen.map(
          (d) =>
            html`<tr><th scope="row">${d.label}</th><td>${zoneTime(d.start, zone)}</td><td>${d.views}</td><td>${d.unique}</td><td>${d.clicks}</td></tr>`,
        )
      : html`<tr><td colspan="5">No views in the last ${DAYS} days.</td></tr>`
  }</tbody></table></div>
${seen.length ? html`<p class="hint">Newest first; the other days of the ${DAYS} had no views or clicks.</p>` : ""}
${campaignsTable("campaigns", campaigns)}
${shareTable("states", "When readers clicked", "The timer", STATE_NAMES, sums.states)}
${shareTable("sources", "Who fetched the images", "Fetched by", SOURCE_NAMES, sums.sources)}
<p class="hint">Image proxies fetch for a reader who opens the email; a privacy prefetch fetches whether or not anyone reads it (docs/email.md).</p>
${shareTable("clients", "Email clients", "Client", FAMILY_NAMES, sums.clients)}
<p class="hint">From how each image was fetched (docs/analytics.md): a heuristic, not proof of an open.</p>`;
  return htmlResponse(
    200,
    page(ctx, { title: `Analytics: ${view.name}`, section: "/timers", content }),
  );
}

/** A timer's analytics page, under its own page, and its CSV downloads. */
export const timerAnalyticsRoutes: readonly PageRoute[] = [
  {
    method: "GET",
    pattern: /^\/timers\/(?<id>[0-9a-f-]{36})\/analytics$/,
    handle: (ctx, { id }) => analyticsPage(ctx, id!),
  },
  {
    method: "GET",
    pattern: /^\/timers\/(?<id>[0-9a-f-]{36})\/analytics\.csv$/,
    handle: (ctx, { id }) =>
      csvDownload(ctx, {
        days: `/timers/${id}/analytics`,
        campaigns: `/timers/${id}/analytics/campaigns`,
      }),
  },
];
