import { html, type SafeHtml } from "./html";

// A timer's views and unique viewers per day as an SVG bar chart drawn on the server: no
// script, no library, no CDN. Two bars a day side by side; the SVG is an image with a title
// and a description, and the page gives the same numbers in a table for screen readers and
// for reading exact values.

/** One day of the chart: its label and its two counts. */
export interface ChartDay {
  /** What the day is called on the page, e.g. "Fri 27 Nov". */
  label: string;
  views: number;
  unique: number;
  /** The part of `views` that image proxies and privacy prefetches fetched. */
  machine?: number;
}

/** Units across one day in the SVG's coordinates (its height is 100). */
const DAY_WIDTH = 10;

/**
 * Views (accent colour) and unique viewers (second colour) per day, scaled to the busiest
 * day; the top of each views bar (grey) is the part fetched by image proxies and privacy
 * prefetches. `titleId` names the chart (aria-labelledby); the caption says what it shows.
 */
export function viewsChart(days: readonly ChartDay[], titleId: string, title: string): SafeHtml {
  const max = Math.max(1, ...days.map((d) => d.views));
  const bar = (kind: string, i: number, offset: number, n: number, what: string, day: string) => {
    const h = (n / max) * 100;
    return html`<rect class="${kind}" x="${(i * DAY_WIDTH + offset).toFixed(2)}" y="${(100 - h).toFixed(2)}" width="4" height="${h.toFixed(2)}"><title>${day}: ${n} ${what}</title></rect>`;
  };
  // Drawn over the top of the views bar: the rest of the bar is the readers' own clients.
  const machine = (i: number, d: ChartDay) => {
    const n = d.machine ?? 0;
    if (n === 0) return "";
    const top = 100 - (d.views / max) * 100;
    return html`<rect class="machine" x="${(i * DAY_WIDTH + 1).toFixed(2)}" y="${top.toFixed(2)}" width="4" height="${((n / max) * 100).toFixed(2)}"><title>${d.label}: ${n} of the views through image proxies and privacy prefetches</title></rect>`;
  };
  const bars = days.map((d, i) => [
    bar("views", i, 1, d.views, d.views === 1 ? "view" : "views", d.label),
    machine(i, d),
    bar("unique", i, 5, d.unique, d.unique === 1 ? "unique viewer" : "unique viewers", d.label),
  ]);
  const first = days[0]?.label ?? "";
  const last = days.at(-1)?.label ?? "";
  return html`<svg class="bars views-chart" viewBox="0 0 ${days.length * DAY_WIDTH} 100" preserveAspectRatio="none" role="img" aria-labelledby="${titleId} ${titleId}-desc"><title id="${titleId}">${title}</title><desc id="${titleId}-desc">Bars per day from ${first} to ${last}, the busiest day ${max} views; the table below has every number.</desc>${bars}</svg>
<div class="chart-labels" aria-hidden="true"><span>${first}</span><span>${last}</span></div>
<p class="legend" aria-hidden="true"><span class="key"><span class="swatch views"></span> Views</span> <span class="key"><span class="swatch machine"></span> of them through proxies and prefetches</span> <span class="key"><span class="swatch unique"></span> Unique viewers</span></p>`;
}

/** One day of the clicks chart: its label, its clicks, and those not from readers' own apps. */
export interface ClickDay {
  label: string;
  clicks: number;
  /** The part of `clicks` that proxies and prefetches (link scanners) made. */
  machine: number;
}

/**
 * Clicks on the timer's link per day (accent colour), scaled to the busiest day, the top of
 * each bar (grey) the part made by scanners and prefetches rather than readers. Drawn like
 * {@link viewsChart}: an image with a title and a description, the numbers in a table beside.
 */
export function clicksChart(days: readonly ClickDay[], titleId: string, title: string): SafeHtml {
  const max = Math.max(1, ...days.map((d) => d.clicks));
  const bars = days.map((d, i) => {
    const h = (d.clicks / max) * 100;
    const m = (d.machine / max) * 100;
    const x = (i * DAY_WIDTH + 2).toFixed(2);
    return html`<rect class="clicks" x="${x}" y="${(100 - h).toFixed(2)}" width="6" height="${h.toFixed(2)}"><title>${d.label}: ${plainPlural(d.clicks, "click")}</title></rect>${
      d.machine > 0
        ? html`<rect class="machine" x="${x}" y="${(100 - h).toFixed(2)}" width="6" height="${m.toFixed(2)}"><title>${d.label}: ${d.machine} of the clicks by scanners and prefetches</title></rect>`
        : ""
    }`;
  });
  const first = days[0]?.label ?? "";
  const last = days.at(-1)?.label ?? "";
  return html`<svg class="bars clicks-chart" viewBox="0 0 ${days.length * DAY_WIDTH} 100" preserveAspectRatio="none" role="img" aria-labelledby="${titleId} ${titleId}-desc"><title id="${titleId}">${title}</title><desc id="${titleId}-desc">Bars per day from ${first} to ${last}, the busiest day ${plainPlural(max, "click")}; the table below has every number.</desc>${bars}</svg>
<div class="chart-labels" aria-hidden="true"><span>${first}</span><span>${last}</span></div>
<p class="legend" aria-hidden="true"><span class="key"><span class="swatch clicks"></span> Clicks</span> <span class="key"><span class="swatch machine"></span> of them by scanners and prefetches</span></p>`;
}

const plainPlural = (n: number, noun: string) => `${n} ${n === 1 ? noun : `${noun}s`}`;
