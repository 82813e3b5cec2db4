// What the timer's and the account's analytics pages share: the bucket shape the API answers,
// the names a marketer knows the clients and sources by, the share tables, the days of the
// charts, the campaigns table and the CSV downloads (the API's own CSV, passed through).
import type { ApiResponse } from "@tminus/http";
import {
  CLICK_STATES,
  CLIENT_FAMILIES,
  type ClickState,
  type ClientFamily,
  REQUEST_SOURCES,
  type RequestSource,
} from "@tminus/store";
import { type ApiCall, dataOf } from "./api-call";
import type { PageContext } from "./context";
import { html, type SafeHtml } from "./html";
import { lastUtcDays } from "./utc-days";
import { zoneDay } from "./zone-time";

/** Days the analytics pages cover, today included (the API keeps 90 by default). */
export const DAYS = 30;

/** One day of the API's analytics list. */
export interface Bucket {
  start: string;
  views: number;
  unique_viewers: number;
  human_unique_viewers: number;
  by_client: Record<ClientFamily, number>;
  by_source: Record<RequestSource, number>;
  clicks: number;
  clicks_by_source: Record<RequestSource, number>;
  clicks_by_state: Record<ClickState, number>;
}

/** One row of the API's campaign or timer totals. */
export interface Total {
  views: number;
  by_source: Record<RequestSource, number>;
  clicks: number;
  clicks_by_source: Record<RequestSource, number>;
}

/** What a row of a share table is called: a name, and a hint of what it means. */
export type Label = readonly [name: string, hint: string];

/** Each email client family as a marketer knows it, with what it means (docs/analytics.md). */
export const FAMILY_NAMES: Readonly<Record<ClientFamily, Label>> = {
  gmail: ["Gmail", "through Google's image proxy, which caches: a lower bound"],
  apple_mail: ["Apple Mail", "Mail Privacy Protection loads images on delivery, read or not"],
  outlook: ["Outlook", "desktop and mobile apps"],
  yahoo: ["Yahoo and AOL Mail", "through Yahoo's image proxy"],
  other: ["Other", "browsers (hosted page, embed, Outlook.com), other clients"],
};

/** Who fetched the images, as a marketer knows it (docs/analytics.md). */
export const SOURCE_NAMES: Readonly<Record<RequestSource, Label>> = {
  human: ["Readers' own apps", "the mail app or browser of the person reading"],
  proxy: ["Image proxies", "Gmail, Yahoo and others fetch for the reader who opens"],
  prefetch: [
    "Privacy prefetches",
    "Apple Mail Privacy Protection, on delivery: not proof that anyone read it",
  ],
};

/** The timer's state at a click, as a marketer knows it. */
export const STATE_NAMES: Readonly<Record<ClickState, Label>> = {
  before: ["Before it started", "the countdown had not started for that reader"],
  running: ["While it ran", "paused included"],
  ended: ["After it ended", "clicks that reached the ended click URL"],
};

/** `n` of `total` as a percentage with one decimal, or a dash when there is no total. */
export const percent = (n: number, total: number) =>
  total === 0 ? "—" : `${Math.round((n / total) * 1000) / 10} %`;

/** A row of a share table: what it counts, its count, and its share of `total`. */
export const shareRow = ([name, hint]: Label, n: number, total: number) =>
  html`<tr><th scope="row">${name}<br><span class="hint">${hint}</span></th><td>${n}</td><td>${percent(n, total)}</td></tr>`;

/** A table of one count split by `names`: its heading id, title, column and rows. */
export function shareTable<K extends string>(
  id: string,
  title: string,
  column: string,
  names: Readonly<Record<K, Label>>,
  counts: readonly (readonly [K, number])[],
): SafeHtml {
  const total = counts.reduce((n, [, c]) => n + c, 0);
  return html`<h2 id="${id}">${title}</h2>
<div class="table"><table aria-labelledby="${id}"><thead><tr><th scope="col">${column}</th><th scope="col">Count</th><th scope="col">Share</th></tr></thead>
<tbody>${counts.map(([k, n]) => shareRow(names[k], n, total))}</tbody></table></div>`;
}

/** The last {@link DAYS} UTC days and the API query that reads them. */
export function analyticsRange(now: number) {
  const { starts, end } = lastUtcDays(now, DAYS);
  return {
    starts,
    query: {
      granularity: "day",
      from: new Date(starts[0]!).toISOString(),
      to: new Date(end).toISOString(),
    },
  };
}

/** One day of the pages: its label and counts, zero where the API had no bucket. */
export interface Day {
  start: number;
  label: string;
  views: number;
  unique: number;
  humans: number;
  /** Views of proxies and prefetches. */
  machine: number;
  clicks: number;
  humanClicks: number;
}

/** The buckets of `items` on every day of `starts` (days without views are zeros). */
export function daysOf(starts: readonly number[], items: readonly Bucket[]): Day[] {
  const byStart = new Map(items.map((b) => [Date.parse(b.start), b]));
  return starts.map((start) => {
    const b = byStart.get(start);
    return {
      start,
      label: zoneDay(new Date(start).toISOString().slice(0, 10)),
      views: b?.views ?? 0,
      unique: b?.unique_viewers ?? 0,
      humans: b?.human_unique_viewers ?? 0,
      machine: (b?.by_source.proxy ?? 0) + (b?.by_source.prefetch ?? 0),
      clicks: b?.clicks ?? 0,
      humanClicks: b?.clicks_by_source.human ?? 0,
    };
  });
}

/** The days of the clicks chart: the clicks, and those not by readers (scanners, prefetches). */
export function clickDays(days: readonly Day[]) {
  return days.map((d) => ({ label: d.label, clicks: d.clicks, machine: d.clicks - d.humanClicks }));
}

/** Sums of the buckets: views and clicks by client, source and state. */
export function sumsOf(items: readonly Bucket[]) {
  const sum = <K extends string>(keys: readonly K[], of: (b: Bucket) => Record<K, number>) =>
    keys.map((k) => [k, items.reduce((n, b) => n + (of(b)[k] ?? 0), 0)] as const);
  return {
    clients: sum(CLIENT_FAMILIES, (b) => b.by_client),
    sources: sum(REQUEST_SOURCES, (b) => b.by_source),
    clickSources: sum(REQUEST_SOURCES, (b) => b.clicks_by_source),
    states: sum(CLICK_STATES, (b) => b.clicks_by_state ?? { before: 0, running: 0, ended: 0 }),
  };
}

/**
 * The readers' clicks per reader, over days: the readers' clicks over the sum of each day's
 * human unique viewers (viewers are counted per UTC day, docs/analytics.md).
 */
export function clickThroughOf(days: readonly Day[]): string {
  const readers = days.reduce((n, d) => n + d.humans, 0);
  return percent(
    days.reduce((n, d) => n + d.humanClicks, 0),
    readers,
  );
}

/** The campaigns of the range: each label's views and clicks, the most viewed first. */
export function campaignsTable(
  id: string,
  rows: readonly (Total & { campaign: string })[],
): SafeHtml {
  return html`<h2 id="${id}">Campaigns</h2>
<p class="hint">Sends told apart by the label on their image and link: the share panel's campaign label (<code>c</code>) or a link tracker's <code>utm_campaign</code>. A timer keeps its first 50 labels of a day apart; later ones count as “other”.</p>
<div class="table"><table aria-labelledby="${id}"><thead><tr><th scope="col">Campaign</th><th scope="col">Views</th><th scope="col">Readers' own apps</th><th scope="col">Clicks</th><th scope="col">Readers' clicks</th></tr></thead>
<tbody>${
    rows.length
      ? rows.map(
          (c) =>
            html`<tr><th scope="row">${c.campaign}</th><td>${c.views}</td><td>${c.by_source.human}</td><td>${c.clicks}</td><td>${c.clicks_by_source.human}</td></tr>`,
        )
      : html`<tr><td colspan="5">No labelled views or clicks in the last ${DAYS} days.</td></tr>`
  }</tbody></table></div>`;
}

/** Reads a totals list (campaigns or timers) of the range. */
export async function totalsOf<T>(ctx: PageContext, path: string, now: number, limit: number) {
  const { query } = analyticsRange(now);
  return dataOf<T[]>(
    await ctx.api({
      method: "GET",
      path,
      query: { from: query.from, to: query.to, limit: String(limit) },
    }),
  );
}

/** The download buttons: the days, and the campaigns, as CSV (`base`: the page's path). */
export function downloads(base: string): SafeHtml {
  return html`<div class="downloads"><a class="button secondary" href="${base}.csv" download>Download days (CSV)</a>
<a class="button secondary" href="${base}.csv?what=campaigns" download>Download campaigns (CSV)</a>
<span class="hint">Columns: docs/analytics.md.</span></div>`;
}

/**
 * A CSV download: the API's own `text/csv` answer for the page's range, passed through as it
 * is (its name, type and columns), read as the signed-in user.
 */
export async function csvDownload(
  ctx: PageContext,
  paths: { days: string; campaigns: string },
): Promise<ApiResponse> {
  const { query } = analyticsRange(ctx.now);
  const campaigns = ctx.req.query.get("what") === "campaigns";
  const call: ApiCall = campaigns
    ? {
        method: "GET",
        path: paths.campaigns,
        query: { from: query.from, to: query.to, format: "csv" },
      }
    : { method: "GET", path: paths.days, query: { ...query, format: "csv" } };
  const result = await ctx.api(call);
  if (!("raw" in result)) throw new Error("the API answered JSON to format=csv");
  return { status: result.raw.status, headers: { ...result.raw.headers }, body: result.raw.body };
}
