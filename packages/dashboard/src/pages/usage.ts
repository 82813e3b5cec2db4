import { ApiError } from "@tminus/http";
import { dataOf, listOf } from "../api-call";
import type { PageContext } from "../context";
import { html, type SafeHtml } from "../html";
import { page, when } from "../layout";
import { htmlResponse } from "../responses";
import { lastUtcDays } from "../utc-days";
import type { PageRoute } from "./route";

/** Days the chart covers (the request log keeps 30 by default). */
const CHART_DAYS = 14;

interface Entry {
  request_id: string;
  method: string;
  route: string;
  status: number;
  error_code: string | null;
  key_prefix: string;
  duration_ms: number;
  created_at: string;
}

/** Requests per UTC day as an SVG bar chart, with the numbers in a table beside it. */
function chart(days: { day: number; count: number }[]): SafeHtml {
  const max = Math.max(1, ...days.map((d) => d.count));
  const width = 100 / days.length;
  const total = days.reduce((n, d) => n + d.count, 0);
  const bars = days.map((d, i) => {
    const h = (d.count / max) * 100;
    return html`<rect x="${(i * width + width * 0.1).toFixed(2)}" y="${(100 - h).toFixed(2)}" width="${(width * 0.8).toFixed(2)}" height="${h.toFixed(2)}"><title>${new Date(d.day).toISOString().slice(0, 10)}: ${d.count}</title></rect>`;
  });
  return html`<figure class="panel"><figcaption>Requests per day (UTC), last ${CHART_DAYS} days: ${total} in all</figcaption>
<svg class="bars" viewBox="0 0 100 100" preserveAspectRatio="none" role="img" aria-label="Bar chart of requests per day; the table below has the numbers">${bars}</svg>
<div class="chart-labels" aria-hidden="true"><span>${new Date(days[0]!.day).toISOString().slice(5, 10)}</span><span>${new Date(days.at(-1)!.day).toISOString().slice(5, 10)}</span></div>
<details><summary>The numbers</summary><div class="table"><table><thead><tr><th scope="col">Day</th><th scope="col">Requests</th></tr></thead>
<tbody>${days.map((d) => html`<tr><td>${new Date(d.day).toISOString().slice(0, 10)}</td><td>${d.count}</td></tr>`)}</tbody></table></div></details></figure>`;
}

async function usagePage(ctx: PageContext) {
  const usage = dataOf<{
    cycle: { id: string; resets_at: string };
    metrics: { metric: string; total: number; limit: number | string }[];
  }>(await ctx.api({ method: "GET", path: "/usage" }));
  const { starts, end } = lastUtcDays(ctx.now, CHART_DAYS);
  const counted = await ctx.admin.records.countRequestsByDay({
    account_id: ctx.account.id,
    environment: ctx.environment,
    since: starts[0]!,
    until: end,
  });
  const byDay = new Map(counted.map((c) => [c.day, c.count]));
  const days = starts.map((day) => ({ day, count: byDay.get(day) ?? 0 }));
  const q = ctx.req.query;
  const filters = {
    status: q.get("status") ?? "",
    route: q.get("route") ?? "",
    key: q.get("key") ?? "",
    request_id: q.get("request_id") ?? "",
  };
  let log: { items: Entry[]; next: string | null } = { items: [], next: null };
  let error: string | null = null;
  try {
    log = listOf<Entry>(
      await ctx.api({
        method: "GET",
        path: "/usage/requests",
        query: { ...filters, limit: "50", cursor: q.get("cursor") ?? undefined },
      }),
    );
  } catch (e) {
    // A filter the API refuses (a status that is not a number...) is the user's to fix.
    if (!(e instanceof ApiError) || e.status >= 500) throw e;
    error = e.message;
  }
  const keep = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ""));
  const field = (name: keyof typeof filters, label: string, hint: string) =>
    html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="text" value="${filters[name]}" placeholder="${hint}"></div>`;
  const content = html`<div class="cards">${usage.metrics.map(
    (
      m,
    ) => html`<section class="card" aria-labelledby="m-${m.metric}"><h2 id="m-${m.metric}">${m.metric === "new_timers" ? "New timers" : "API requests"} this cycle</h2>
<p class="n">${m.total}${typeof m.limit === "number" ? html` <span class="muted">of ${m.limit}</span>` : ""}</p><p>Cycle ${usage.cycle.id}, resets ${usage.cycle.resets_at.slice(0, 10)}</p></section>`,
  )}</div>
${chart(days)}
<h2>Request log</h2>
<form class="panel row" method="get" action="${ctx.envPath("/usage")}" role="search" aria-label="Filter the request log">
${field("status", "Status", "429")}${field("route", "Route", "/api/v1/timers")}${field("key", "Key", "prefix or id")}${field("request_id", "Request id", "")}
<div><button type="submit">Filter</button></div></form>
<div class="table"><table><caption class="sr-only">Request log, newest first</caption><thead><tr><th scope="col">When</th><th scope="col">Request</th><th scope="col">Status</th><th scope="col" class="opt">Key</th><th scope="col" class="opt">Took</th><th scope="col" class="opt">Request id</th></tr></thead>
<tbody>${
    log.items.length
      ? log.items.map(
          (
            e,
          ) => html`<tr><td>${when(e.created_at)}</td><td><code>${e.method} ${e.route}</code></td><td>${e.status}${e.error_code ? html` <span class="hint">${e.error_code}</span>` : ""}</td>
<td class="opt"><code>${e.key_prefix}</code></td><td class="opt">${e.duration_ms} ms</td><td class="opt"><code>${e.request_id}</code></td></tr>`,
        )
      : html`<tr><td colspan="6">No requests match.</td></tr>`
  }</tbody></table></div>
<nav class="pager" aria-label="Pages">${q.get("cursor") ? html`<a href="${ctx.envPath(`/usage?${keep}`)}">Newest</a>` : ""}
${log.next ? html`<a href="${ctx.envPath(`/usage?${new URLSearchParams([...keep, ["cursor", log.next]])}`)}">Older</a>` : ""}</nav>`;
  return htmlResponse(
    error ? 400 : 200,
    page(ctx, { title: "Usage", section: "/usage", content, error }),
  );
}

/** Usage: the cycle's counters, requests per day, and the request log with filters. */
export const usageRoutes: readonly PageRoute[] = [
  { method: "GET", pattern: /^\/usage$/, handle: usagePage },
];
