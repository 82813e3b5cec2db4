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
  shareTable,
  sumsOf,
  type Total,
  totalsOf,
} from "../analytics-parts";
import { listOf } from "../api-call";
import type { PageContext } from "../context";
import { html } from "../html";
import { page } from "../layout";
import { htmlResponse } from "../responses";
import { clicksChart, viewsChart } from "../views-chart";
import type { PageRoute } from "./route";

// The account at a glance: every live timer of the environment together, read through the
// API's GET /analytics, /analytics/timers and /analytics/campaigns as the signed-in user:
// views and clicks per day for the last 30 days, the most viewed timers, the email clients
// and the campaigns, and the days and campaigns as CSV.

/** The most viewed timers the page lists. */
const TOP_TIMERS = 10;

async function accountPage(ctx: PageContext) {
  const { starts, query } = analyticsRange(ctx.now);
  const { items } = listOf<Bucket>(
    await ctx.api({ method: "GET", path: "/analytics", query: { ...query, limit: String(DAYS) } }),
  );
  const [timers, campaigns] = await Promise.all([
    totalsOf<Total & { timer_id: string; name: string }>(
      ctx,
      "/analytics/timers",
      ctx.now,
      TOP_TIMERS,
    ),
    totalsOf<Total & { campaign: string }>(ctx, "/analytics/campaigns", ctx.now, 20),
  ]);
  const days = daysOf(starts, items);
  const views = days.reduce((n, d) => n + d.views, 0);
  const clicks = days.reduce((n, d) => n + d.clicks, 0);
  const sums = sumsOf(items);
  const human = sums.sources[0]![1];
  const topClient = [...sums.clients].sort((a, b) => b[1] - a[1])[0]!;
  const content = html`<p>Public views and clicks of every live timer in ${ctx.environment === "production" ? "production" : "the sandbox"}, in the last ${DAYS} UTC days. Looking at it here counts nothing.</p>
<div class="cards"><section class="card" aria-labelledby="c-views"><h2 id="c-views">Views, ${DAYS} days</h2><p class="n">${views}</p><p>${views === 0 ? "no views yet" : `${percent(human, views)} in readers' own apps`}</p></section>
<section class="card" aria-labelledby="c-clicks"><h2 id="c-clicks">Clicks, ${DAYS} days</h2><p class="n">${clicks}</p><p>click-through ${clickThroughOf(days)}</p></section>
<section class="card" aria-labelledby="c-timers"><h2 id="c-timers">Timers with views</h2><p class="n">${timers.length}${timers.length === TOP_TIMERS ? "+" : ""}</p><p><a href="${ctx.envPath("/timers")}">All timers</a></p></section>
<section class="card" aria-labelledby="c-client"><h2 id="c-client">Top email client</h2><p class="n">${views === 0 ? "—" : FAMILY_NAMES[topClient[0]][0]}</p><p>${views === 0 ? "no views yet" : `${percent(topClient[1], views)} of views`}</p></section></div>
${downloads(ctx.envPath("/analytics"))}
<figure class="panel">${viewsChart(days, "views-chart-title", `All timers' views and unique viewers per day, last ${DAYS} days`)}
<figcaption class="hint">Days are UTC days. A recipient id seen on two timers is one unique viewer.</figcaption></figure>
<figure class="panel">${clicksChart(clickDays(days), "clicks-chart-title", `All timers' clicks per day, last ${DAYS} days`)}
<figcaption class="hint">Click-through: the readers' clicks per reader who saw a timer (readers' own apps only, each day's unique viewers added up).</figcaption></figure>
<h2 id="top-timers">Most viewed timers</h2>
<div class="table"><table aria-labelledby="top-timers"><thead><tr><th scope="col">Timer</th><th scope="col">Views</th><th scope="col">Readers' own apps</th><th scope="col">Clicks</th></tr></thead>
<tbody>${
    timers.length
      ? timers.map(
          (t) =>
            html`<tr><th scope="row"><a href="${ctx.envPath(`/timers/${t.timer_id}/analytics`)}">${t.name}</a></th><td>${t.views}</td><td>${t.by_source.human}</td><td>${t.clicks}</td></tr>`,
        )
      : html`<tr><td colspan="4">No views or clicks in the last ${DAYS} days.</td></tr>`
  }</tbody></table></div>
${shareTable("clients", "Email clients", "Client", FAMILY_NAMES, sums.clients)}
<p class="hint">From how each image was fetched (docs/analytics.md): a heuristic, not proof of an open.</p>
${shareTable("sources", "Who fetched the images", "Fetched by", SOURCE_NAMES, sums.sources)}
${campaignsTable("campaigns", campaigns)}`;
  return htmlResponse(200, page(ctx, { title: "Analytics", section: "/analytics", content }));
}

/** The account's analytics page, and its CSV downloads. */
export const accountAnalyticsRoutes: readonly PageRoute[] = [
  { method: "GET", pattern: /^\/analytics$/, handle: (ctx) => accountPage(ctx) },
  {
    method: "GET",
    pattern: /^\/analytics\.csv$/,
    handle: (ctx) => csvDownload(ctx, { days: "/analytics", campaigns: "/analytics/campaigns" }),
  },
];
