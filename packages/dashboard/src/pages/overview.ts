import { cycleAt } from "@tminus/http";
import { dataOf, listOf } from "../api-call";
import { html } from "../html";
import { page } from "../layout";
import { htmlResponse } from "../responses";
import { lastUtcDays } from "../utc-days";
import type { PageRoute } from "./route";

interface Metric {
  metric: string;
  total: number;
  limit: number | "unlimited";
  resets_at: string;
}

/** The overview: allowance, today's requests, published timers, failing webhooks. */
export const overviewRoutes: readonly PageRoute[] = [
  {
    method: "GET",
    pattern: /^\/?$/,
    async handle(ctx) {
      const usage = dataOf<{ metrics: Metric[] }>(await ctx.api({ method: "GET", path: "/usage" }));
      const timers = usage.metrics.find((m) => m.metric === "new_timers")!;
      const { starts, end } = lastUtcDays(ctx.now, 1);
      const [counted] = await ctx.admin.records.countRequestsByDay({
        account_id: ctx.account.id,
        environment: ctx.environment,
        since: starts[0]!,
        until: end,
      });
      const published = listOf(
        await ctx.api({
          method: "GET",
          path: "/timers",
          query: { status: "published", limit: "100" },
        }),
      );
      const failing = ctx.user.role === "owner" ? await failingDestinations(ctx) : null;
      const limit = typeof timers.limit === "number" ? timers.limit : 0;
      const cycle = cycleAt(ctx.now);
      const content = html`<div class="cards">
<section class="card" aria-labelledby="c-new"><h2 id="c-new">New timers this cycle</h2>
<p class="n">${timers.total} <span class="muted">of ${limit}</span></p>
<meter min="0" max="${limit}" value="${timers.total}" aria-labelledby="c-new">${timers.total} of ${limit}</meter>
<p>Cycle ${cycle.id}, resets ${timers.resets_at.slice(0, 10)}</p></section>
<section class="card" aria-labelledby="c-req"><h2 id="c-req">API requests today</h2><p class="n">${counted?.count ?? 0}</p><p>UTC day, from the request log</p></section>
<section class="card" aria-labelledby="c-pub"><h2 id="c-pub">Published timers</h2><p class="n">${published.items.length}${published.next ? "+" : ""}</p>
<p><a href="${ctx.envPath("/timers?status=published")}">See them</a></p></section>
${
  failing === null
    ? ""
    : html`<section class="card" aria-labelledby="c-hook"><h2 id="c-hook">Failing webhook destinations</h2><p class="n">${failing}</p>
<p><a href="${ctx.envPath("/webhooks")}">Webhooks</a></p></section>`
}</div>
<div class="actions"><a class="button" href="${ctx.envPath("/timers/new")}">Build a timer</a>
<a class="button secondary" href="${ctx.envPath("/timers")}">All timers</a></div>`;
      return htmlResponse(200, page(ctx, { title: "Overview", section: "", content }));
    },
  },
];

/** Destinations with a failed delivery among the latest hundred. */
async function failingDestinations(ctx: Parameters<PageRoute["handle"]>[0]): Promise<number> {
  const failed = listOf<{ destination_id: string }>(
    await ctx.api({
      method: "GET",
      path: "/webhook-deliveries",
      query: { status: "failed", limit: "100" },
    }),
  );
  return new Set(failed.items.map((d) => d.destination_id)).size;
}
