import type { Environment } from "./common";

/** What a public view showed: the email GIF or PNG, the hosted page, or the embed. */
export const RENDER_KINDS = ["gif", "png", "page", "embed"] as const;

/** One kind of public view. */
export type RenderKind = (typeof RENDER_KINDS)[number];

/**
 * Email client families told apart by the request (docs/analytics.md lists the heuristics):
 * Gmail's image proxy, Apple Mail (its privacy proxy included), Outlook, Yahoo, and the rest.
 */
export const CLIENT_FAMILIES = ["gmail", "apple_mail", "outlook", "yahoo", "other"] as const;

/** One email client family. */
export type ClientFamily = (typeof CLIENT_FAMILIES)[number];

/**
 * Who fetched a public view (docs/analytics.md, "Human opens, proxies and prefetches"): a
 * person's own client, an image proxy fetching for a person who opened the message (Gmail,
 * Yahoo, ...), or a privacy prefetch that fetches whether or not anyone reads (Apple Mail
 * Privacy Protection).
 */
export const REQUEST_SOURCES = ["human", "proxy", "prefetch"] as const;

/** One request source. */
export type RequestSource = (typeof REQUEST_SOURCES)[number];

/**
 * The timer's state when a reader clicked its link (`/t/{id}/go`): before the countdown
 * started, while it runs (paused included), or once it ended.
 */
export const CLICK_STATES = ["before", "running", "ended"] as const;

/** One state of a timer at a click. */
export type ClickState = (typeof CLICK_STATES)[number];

/**
 * Campaign labels kept apart per timer per UTC day: the first this many labels seen that day
 * have a row each, any later label is added to {@link OTHER_CAMPAIGN}. Labels come from URLs
 * anyone can write, so the rows a timer can gain stay bounded whatever is sent.
 */
export const CAMPAIGNS_PER_TIMER_DAY = 50;

/** The label of the views and clicks of labels past {@link CAMPAIGNS_PER_TIMER_DAY}. */
export const OTHER_CAMPAIGN = "other";

/** Granularities of the analytics buckets. */
export type AnalyticsGranularity = "hour" | "day";

/** Views of one timer in one UTC hour, of one kind, from one client family: added up. */
export interface RenderViewCount {
  account_id: string;
  environment: Environment;
  timer_id: string;
  /** Start of the UTC hour (Unix ms, a multiple of 3 600 000). */
  hour: number;
  kind: RenderKind;
  client: ClientFamily;
  views: number;
  /** Who fetched these views; absent: `human`. Counts of each source add up apart. */
  source?: RequestSource;
}

/** Clicks on one timer's link in one UTC hour, in one state of the timer: added up. */
export interface RenderClickCount {
  account_id: string;
  environment: Environment;
  timer_id: string;
  /** Start of the UTC hour (Unix ms, a multiple of 3 600 000). */
  hour: number;
  state: ClickState;
  clicks: number;
  /** Who clicked (the same User-Agent rules as views); absent: `human`. */
  source?: RequestSource;
}

/**
 * Views and clicks of one timer on one UTC day under one campaign label (`c` or
 * `utm_campaign` on the URL), from one source: added up. Unlabelled requests have none.
 */
export interface CampaignCount {
  account_id: string;
  environment: Environment;
  timer_id: string;
  /** Start of the UTC day (Unix ms, a multiple of 86 400 000). */
  day: number;
  /** The label as sent (trimmed, at most 64 characters); the store may file it under `other`. */
  campaign: string;
  views: number;
  clicks: number;
  /** Who fetched or clicked; absent: `human`. */
  source?: RequestSource;
}

/**
 * One viewer of one timer on one UTC day, and the hours of that day it was seen in. The store
 * keeps one row per (timer, day, viewer) and ORs the hours together, so unique viewers per
 * hour and per day are exact and the table grows with distinct viewers, not with views.
 */
export interface RenderViewerMark {
  account_id: string;
  environment: Environment;
  timer_id: string;
  /** Start of the UTC day (Unix ms, a multiple of 86 400 000). */
  day: number;
  /** An opaque hash salted with the day's salt: never a raw address or recipient id. */
  viewer: string;
  /** Bit h (0 to 23) set: seen in hour h of the day. */
  hours: number;
  /** The bits of `hours` in which a human open (not a proxy or prefetch) saw it; absent: all. */
  human_hours?: number;
}

/** A page of analytics buckets of one timer, or of every timer of the environment. */
export interface RenderAnalyticsQuery {
  account_id: string;
  environment: Environment;
  /** One timer; absent: every live (not deleted) timer of the account's environment together. */
  timer_id?: string;
  granularity: AnalyticsGranularity;
  /** Buckets starting at or after this instant (aligned to the granularity by the caller). */
  from: number;
  /** Buckets starting before this instant. */
  to: number;
  /** Buckets starting strictly after this one (keyset paging). */
  after?: number;
  limit: number;
}

/** One hour or day of views. */
export interface RenderAnalyticsBucket {
  /** Start of the UTC hour or day. */
  start: number;
  views: number;
  /** Distinct viewers in the bucket (all timers of the query together). */
  unique_viewers: number;
  by_kind: Record<RenderKind, number>;
  by_client: Record<ClientFamily, number>;
  /** The views by who fetched them; `human` is the views without proxies and prefetches. */
  by_source: Record<RequestSource, number>;
  /** Distinct viewers seen by at least one human open in the bucket. */
  human_unique_viewers: number;
  /** Clicks on the timer's link (`/t/{id}/go`) in the bucket. */
  clicks: number;
  /** The clicks by who clicked (the User-Agent rules of views). */
  clicks_by_source: Record<RequestSource, number>;
  /** The clicks by the timer's state at the click. */
  clicks_by_state: Record<ClickState, number>;
}

/** Totals over a range grouped by campaign label, or by timer (the account's top timers). */
export interface AnalyticsTotalsQuery {
  account_id: string;
  environment: Environment;
  /** One timer; absent: every live timer of the account's environment. */
  timer_id?: string;
  by: "campaign" | "timer";
  /** Instants of the range; campaigns are counted per UTC day, so read whole days. */
  from: number;
  to: number;
  limit: number;
}

/** One campaign label's or one timer's views and clicks over a range. */
export interface AnalyticsTotal {
  /** The campaign label, or the timer id. */
  key: string;
  views: number;
  by_source: Record<RequestSource, number>;
  clicks: number;
  clicks_by_source: Record<RequestSource, number>;
}

/** Counts of public views, unique viewers, and the daily salt their hashes use. */
export interface AnalyticsStore {
  /**
   * Adds view counts and viewer marks in one transaction: counts of the same (timer, hour,
   * kind, client) add up (per source), marks of the same (timer, day, viewer) OR their hours
   * (and their human hours). The caller
   * batches (counts are kept in memory and written every ~100 ms).
   */
  recordRenderViews(input: {
    counts: readonly RenderViewCount[];
    viewers: readonly RenderViewerMark[];
    /** Clicks of the same (timer, hour, state) add up, per source. */
    clicks?: readonly RenderClickCount[];
    /**
     * Counts of the same (timer, day, label) add up; a label new to a timer's day when it
     * already has {@link CAMPAIGNS_PER_TIMER_DAY} others is added to `other` instead.
     */
    campaigns?: readonly CampaignCount[];
  }): Promise<void>;
  /** Buckets with at least one view or click, ascending by start, at most `limit`. */
  listRenderAnalytics(query: RenderAnalyticsQuery): Promise<RenderAnalyticsBucket[]>;
  /**
   * Views and clicks over `[from, to)` per campaign label or per timer, the most viewed first
   * (then the most clicked, then by key), at most `limit`.
   */
  listAnalyticsTotals(query: AnalyticsTotalsQuery): Promise<AnalyticsTotal[]>;
  /**
   * The salt of one UTC day (atomic get-or-create, one for all processes): viewers are hashed
   * with it, and purging it once the day is over makes that day's hashes unlinkable.
   */
  analyticsSalt(day: number, create: () => string): Promise<string>;
}
