import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type Account,
  CAMPAIGNS_PER_TIMER_DAY,
  type CampaignCount,
  type RenderClickCount,
  type RenderViewCount,
  type RenderViewerMark,
  type Store,
} from "../../src/contract";
import {
  createInput,
  createTimer,
  deleteTimer,
  newAccount,
  newTimer,
  type SuiteContext,
  T0,
} from "./_fixtures";

const HOUR = 3_600_000;
const DAY = 86_400_000;
/** The start of T0's UTC day. */
const D0 = T0 - (T0 % DAY);

type Scope = { account_id: string; environment: "production" | "sandbox"; timer_id: string };

/** A live timer of the account (the account's totals cover its live timers). */
async function scopeOf(
  store: Store,
  account: Account,
  environment: Scope["environment"] = "production",
): Promise<Scope> {
  const timer = await createTimer(store, createInput(newTimer(account, { environment })));
  return { account_id: account.id, environment, timer_id: timer.id };
}

function count(
  scope: Scope,
  hour: number,
  views: number,
  over: Partial<RenderViewCount> = {},
): RenderViewCount {
  return { ...scope, hour, kind: "gif", client: "gmail", views, ...over };
}

function click(
  scope: Scope,
  hour: number,
  clicks: number,
  over: Partial<RenderClickCount> = {},
): RenderClickCount {
  return { ...scope, hour, state: "running", clicks, ...over };
}

function labelled(
  scope: Scope,
  day: number,
  campaign: string,
  views: number,
  clicks = 0,
  over: Partial<CampaignCount> = {},
): CampaignCount {
  return { ...scope, day, campaign, views, clicks, ...over };
}

const bits = (hours: number[]) => hours.reduce((set, h) => set | (1 << h), 0);

function mark(
  scope: Scope,
  day: number,
  viewer: string,
  hours: number[],
  humanHours?: number[],
): RenderViewerMark {
  return {
    ...scope,
    day,
    viewer,
    hours: bits(hours),
    ...(humanHours === undefined ? {} : { human_hours: bits(humanHours) }),
  };
}

function list(store: Store, scope: Partial<Scope> & { account_id: string }, over = {}) {
  return store.listRenderAnalytics({
    environment: "production",
    granularity: "hour",
    from: D0 - 10 * DAY,
    to: D0 + 10 * DAY,
    limit: 100,
    ...scope,
    ...over,
  });
}

/** Render counts, viewer sets, salts and their purge. */
export function analyticsTests(ctx: SuiteContext): void {
  describe("render analytics", () => {
    it("adds counts up per hour, kind and client, and sums them into hour and day buckets", async () => {
      const scope = await scopeOf(ctx.store, await newAccount(ctx.store));
      await ctx.store.recordRenderViews({
        counts: [
          count(scope, D0 + 9 * HOUR, 3),
          count(scope, D0 + 9 * HOUR, 2, { kind: "png", client: "apple_mail" }),
          count(scope, D0 + 11 * HOUR, 1, { kind: "page", client: "other" }),
        ],
        viewers: [],
      });
      // The same key again adds up, in another batch and twice within one batch.
      await ctx.store.recordRenderViews({
        counts: [count(scope, D0 + 9 * HOUR, 4), count(scope, D0 + 9 * HOUR, 1)],
        viewers: [],
      });
      const hours = await list(ctx.store, scope);
      expect(hours.map((b) => [b.start, b.views])).toEqual([
        [D0 + 9 * HOUR, 10],
        [D0 + 11 * HOUR, 1],
      ]);
      expect(hours[0]!.by_kind).toEqual({ gif: 8, png: 2, page: 0, embed: 0 });
      expect(hours[0]!.by_client).toEqual({
        gmail: 8,
        apple_mail: 2,
        outlook: 0,
        yahoo: 0,
        other: 0,
      });
      const days = await list(ctx.store, scope, { granularity: "day" });
      expect(days).toHaveLength(1);
      expect(days[0]!.start).toBe(D0);
      expect(days[0]!.views).toBe(11);
      expect(days[0]!.by_kind.page).toBe(1);
    });

    it("counts unique viewers exactly per hour and per day from the OR-ed hour sets", async () => {
      const scope = await scopeOf(ctx.store, await newAccount(ctx.store));
      await ctx.store.recordRenderViews({
        counts: [
          count(scope, D0 + 9 * HOUR, 5),
          count(scope, D0 + 10 * HOUR, 5),
          count(scope, D0 + DAY, 1),
        ],
        viewers: [mark(scope, D0, "a", [9]), mark(scope, D0, "b", [9, 10])],
      });
      // a comes back at 10:00: its row gains the hour, it stays one viewer of the day.
      await ctx.store.recordRenderViews({
        counts: [],
        viewers: [mark(scope, D0, "a", [10]), mark(scope, D0 + DAY, "a", [0])],
      });
      const hours = await list(ctx.store, scope);
      expect(hours.map((b) => [b.start - D0, b.unique_viewers])).toEqual([
        [9 * HOUR, 2],
        [10 * HOUR, 2],
        [DAY, 1],
      ]);
      const days = await list(ctx.store, scope, { granularity: "day" });
      expect(days.map((b) => [b.start - D0, b.unique_viewers])).toEqual([
        [0, 2],
        [DAY, 1],
      ]);
    });

    it("adds views up per source, and counts human viewers from their human hours", async () => {
      const scope = await scopeOf(ctx.store, await newAccount(ctx.store));
      await ctx.store.recordRenderViews({
        counts: [
          count(scope, D0 + 9 * HOUR, 3, { source: "prefetch", client: "apple_mail" }),
          count(scope, D0 + 9 * HOUR, 2, { source: "human", client: "apple_mail" }),
          count(scope, D0 + 9 * HOUR, 4, { source: "proxy" }),
          // No source: a human open (what callers that predate sources write).
          count(scope, D0 + 10 * HOUR, 1),
        ],
        viewers: [
          // Prefetched at 9, opened by its reader at 10.
          mark(scope, D0, "mpp", [9, 10], [10]),
          mark(scope, D0, "gmail", [9], []),
          mark(scope, D0, "plain", [9]),
        ],
      });
      // Later batches OR the human hours in, even when the hours are already known.
      await ctx.store.recordRenderViews({
        counts: [count(scope, D0 + 9 * HOUR, 1, { source: "prefetch", client: "apple_mail" })],
        viewers: [mark(scope, D0, "gmail", [9], [9])],
      });
      const hours = await list(ctx.store, scope);
      expect(
        hours.map((b) => [
          b.start - D0,
          b.views,
          b.by_source,
          b.unique_viewers,
          b.human_unique_viewers,
        ]),
      ).toEqual([
        [9 * HOUR, 10, { human: 2, proxy: 4, prefetch: 4 }, 3, 2],
        [10 * HOUR, 1, { human: 1, proxy: 0, prefetch: 0 }, 1, 1],
      ]);
      // The kind and client sums still hold every source.
      expect(hours[0]!.by_client.apple_mail).toBe(6);
      const days = await list(ctx.store, scope, { granularity: "day" });
      expect(days.map((b) => [b.by_source, b.unique_viewers, b.human_unique_viewers])).toEqual([
        [{ human: 3, proxy: 4, prefetch: 4 }, 3, 3],
      ]);
    });

    it("counts a viewer only ever fetched by machines in the unique viewers, not the human ones", async () => {
      const scope = await scopeOf(ctx.store, await newAccount(ctx.store));
      await ctx.store.recordRenderViews({
        counts: [count(scope, D0 + 8 * HOUR, 1, { source: "prefetch" })],
        viewers: [mark(scope, D0, "mpp", [8], [])],
      });
      const [day] = await list(ctx.store, scope, { granularity: "day" });
      expect([day!.unique_viewers, day!.human_unique_viewers]).toEqual([1, 0]);
      expect(day!.by_source).toEqual({ human: 0, proxy: 0, prefetch: 1 });
    });

    it("keeps accounts and environments apart, and totals an environment across its timers", async () => {
      const account = await newAccount(ctx.store);
      const one = await scopeOf(ctx.store, account);
      const two = await scopeOf(ctx.store, account);
      const sandbox = await scopeOf(ctx.store, account, "sandbox");
      const stranger = await scopeOf(ctx.store, await newAccount(ctx.store));
      await ctx.store.recordRenderViews({
        counts: [one, two, sandbox, stranger].map((s) => count(s, D0, 2)),
        // One recipient hash seen on both timers counts once over the environment.
        viewers: [one, two, sandbox, stranger].map((s) => mark(s, D0, "same", [0])),
      });
      const total = await list(ctx.store, { account_id: account.id }, { granularity: "day" });
      expect(total.map((b) => [b.views, b.unique_viewers])).toEqual([[4, 1]]);
      const ofOne = await list(ctx.store, one, { granularity: "day" });
      expect(ofOne.map((b) => b.views)).toEqual([2]);
      const ofSandbox = await list(
        ctx.store,
        { account_id: account.id, environment: "sandbox" },
        { granularity: "day" },
      );
      expect(ofSandbox.map((b) => b.views)).toEqual([2]);
      // Another account's timer id asked with this account: nothing.
      expect(await list(ctx.store, { ...stranger, account_id: account.id })).toEqual([]);
      // A deleted timer leaves the totals; its own numbers stay readable by id.
      await deleteTimer(ctx.store, account.id, "production", two.timer_id);
      const after = await list(ctx.store, { account_id: account.id }, { granularity: "day" });
      expect(after.map((b) => [b.views, b.unique_viewers])).toEqual([[2, 1]]);
      expect((await list(ctx.store, two, { granularity: "day" })).map((b) => b.views)).toEqual([2]);
    });

    it("pages buckets in order by start, within [from, to)", async () => {
      const scope = await scopeOf(ctx.store, await newAccount(ctx.store));
      await ctx.store.recordRenderViews({
        counts: Array.from({ length: 7 }, (_, i) => count(scope, D0 + i * HOUR, i + 1)),
        viewers: [],
      });
      const seen: number[] = [];
      let after: number | undefined;
      for (let page = 0; page < 10; page++) {
        const rows = await list(ctx.store, scope, {
          from: D0 + HOUR,
          to: D0 + 6 * HOUR,
          limit: 2,
          ...(after === undefined ? {} : { after }),
        });
        seen.push(...rows.map((r) => r.views));
        if (rows.length < 2) break;
        after = rows.at(-1)!.start;
      }
      expect(seen).toEqual([2, 3, 4, 5, 6]);
    });

    it("adds clicks up per hour, state and source, in buckets beside the views", async () => {
      const scope = await scopeOf(ctx.store, await newAccount(ctx.store));
      await ctx.store.recordRenderViews({
        counts: [count(scope, D0 + 9 * HOUR, 4, { source: "human" })],
        viewers: [],
        clicks: [
          click(scope, D0 + 9 * HOUR, 2),
          click(scope, D0 + 9 * HOUR, 1, { state: "before" }),
          click(scope, D0 + 9 * HOUR, 1, { source: "prefetch" }),
          // An hour with clicks and no view is a bucket too.
          click(scope, D0 + 13 * HOUR, 3, { state: "ended", source: "proxy" }),
        ],
      });
      // Again, in another batch, and twice within one.
      await ctx.store.recordRenderViews({
        counts: [],
        viewers: [],
        clicks: [click(scope, D0 + 9 * HOUR, 1), click(scope, D0 + 9 * HOUR, 1)],
      });
      const hours = await list(ctx.store, scope);
      expect(hours.map((b) => [b.start - D0, b.views, b.clicks])).toEqual([
        [9 * HOUR, 4, 6],
        [13 * HOUR, 0, 3],
      ]);
      expect(hours[0]!.clicks_by_state).toEqual({ before: 1, running: 5, ended: 0 });
      expect(hours[0]!.clicks_by_source).toEqual({ human: 5, proxy: 0, prefetch: 1 });
      expect(hours[1]!.clicks_by_source).toEqual({ human: 0, proxy: 3, prefetch: 0 });
      expect(hours[1]!.by_kind).toEqual({ gif: 0, png: 0, page: 0, embed: 0 });
      const days = await list(ctx.store, scope, { granularity: "day" });
      expect(days.map((b) => [b.start, b.views, b.clicks])).toEqual([[D0, 4, 9]]);
      expect(days[0]!.clicks_by_state).toEqual({ before: 1, running: 5, ended: 3 });
      // Keyset paging walks the buckets with clicks only as well.
      const second = await list(ctx.store, scope, { after: D0 + 9 * HOUR, limit: 1 });
      expect(second.map((b) => b.start)).toEqual([D0 + 13 * HOUR]);
      // The account's totals, and other accounts see nothing.
      const account = await list(ctx.store, { account_id: scope.account_id });
      expect(account.map((b) => b.clicks)).toEqual([6, 3]);
      const stranger = await list(ctx.store, {
        account_id: (await newAccount(ctx.store)).id,
        timer_id: scope.timer_id,
      });
      expect(stranger).toEqual([]);
    });

    it("totals views and clicks per timer, the most viewed first", async () => {
      const account = await newAccount(ctx.store);
      const a = await scopeOf(ctx.store, account);
      const b = await scopeOf(ctx.store, account);
      const c = await scopeOf(ctx.store, account);
      const sandbox = await scopeOf(ctx.store, account, "sandbox");
      await ctx.store.recordRenderViews({
        counts: [
          count(a, D0 + HOUR, 2),
          count(b, D0 + HOUR, 5, { source: "proxy" }),
          count(b, D0 + 2 * HOUR, 1),
          count(c, D0 + HOUR, 2),
          count(sandbox, D0 + HOUR, 50),
          // Outside the range.
          count(a, D0 + 3 * DAY, 100),
        ],
        viewers: [],
        clicks: [click(c, D0 + HOUR, 2), click(b, D0 + 2 * HOUR, 1, { source: "prefetch" })],
      });
      const totals = await ctx.store.listAnalyticsTotals({
        account_id: account.id,
        environment: "production",
        by: "timer",
        from: D0,
        to: D0 + DAY,
        limit: 10,
      });
      expect(totals.map((t) => [t.key, t.views, t.clicks])).toEqual([
        [b.timer_id, 6, 1],
        [c.timer_id, 2, 2],
        [a.timer_id, 2, 0],
      ]);
      expect(totals[0]!.by_source).toEqual({ human: 1, proxy: 5, prefetch: 0 });
      expect(totals[0]!.clicks_by_source).toEqual({ human: 0, proxy: 0, prefetch: 1 });
      const top = await ctx.store.listAnalyticsTotals({
        account_id: account.id,
        environment: "production",
        by: "timer",
        from: D0,
        to: D0 + DAY,
        limit: 1,
      });
      expect(top.map((t) => t.key)).toEqual([b.timer_id]);
      // A deleted timer leaves the account's totals.
      await deleteTimer(ctx.store, account.id, "production", b.timer_id);
      const live = await ctx.store.listAnalyticsTotals({
        account_id: account.id,
        environment: "production",
        by: "timer",
        from: D0,
        to: D0 + DAY,
        limit: 10,
      });
      expect(live.map((t) => t.key)).toEqual([c.timer_id, a.timer_id]);
    });

    it("keeps views and clicks per campaign label and day, the labels of a timer's day bounded", async () => {
      const account = await newAccount(ctx.store);
      const a = await scopeOf(ctx.store, account);
      const b = await scopeOf(ctx.store, account);
      await ctx.store.recordRenderViews({
        counts: [],
        viewers: [],
        campaigns: [
          labelled(a, D0, "spring-sale", 3, 1),
          labelled(a, D0, "spring-sale", 2, 0, { source: "prefetch" }),
          labelled(a, D0, "newsletter", 1, 2, { source: "proxy" }),
          labelled(a, D0 + DAY, "spring-sale", 4),
          labelled(b, D0, "spring-sale", 10),
        ],
      });
      const totals = (over: Record<string, unknown> = {}) =>
        ctx.store.listAnalyticsTotals({
          account_id: account.id,
          environment: "production",
          timer_id: a.timer_id,
          by: "campaign",
          from: D0,
          to: D0 + 2 * DAY,
          limit: 100,
          ...over,
        });
      const one = await totals();
      expect(one.map((t) => [t.key, t.views, t.clicks])).toEqual([
        ["spring-sale", 9, 1],
        ["newsletter", 1, 2],
      ]);
      expect(one[0]!.by_source).toEqual({ human: 7, proxy: 0, prefetch: 2 });
      expect(one[1]!.clicks_by_source).toEqual({ human: 0, proxy: 2, prefetch: 0 });
      expect((await totals({ to: D0 + DAY })).map((t) => [t.key, t.views])).toEqual([
        ["spring-sale", 5],
        ["newsletter", 1],
      ]);
      // The account's labels over every timer.
      const all = await totals({ timer_id: undefined });
      expect(all.map((t) => [t.key, t.views])).toEqual([
        ["spring-sale", 19],
        ["newsletter", 1],
      ]);

      // A day has room for CAMPAIGNS_PER_TIMER_DAY labels; later labels go to "other", in
      // this batch and in later ones, while known labels keep adding up.
      const day = D0 + 5 * DAY;
      const many = Array.from({ length: CAMPAIGNS_PER_TIMER_DAY + 5 }, (_, i) =>
        labelled(a, day, `send-${String(i).padStart(3, "0")}`, 1),
      );
      await ctx.store.recordRenderViews({
        counts: [],
        viewers: [],
        campaigns: many.slice(0, CAMPAIGNS_PER_TIMER_DAY - 1),
      });
      await ctx.store.recordRenderViews({
        counts: [],
        viewers: [],
        campaigns: [...many.slice(CAMPAIGNS_PER_TIMER_DAY - 1), labelled(a, day, "send-000", 1)],
      });
      const bounded = await totals({ from: day, to: day + DAY });
      expect(bounded).toHaveLength(CAMPAIGNS_PER_TIMER_DAY + 1);
      expect(bounded.map((t) => [t.key, t.views]).slice(0, 2)).toEqual([
        ["other", 5],
        ["send-000", 2],
      ]);
      // Another timer's day, and the next day, have room of their own.
      await ctx.store.recordRenderViews({
        counts: [],
        viewers: [],
        campaigns: [labelled(b, day, "late", 1), labelled(a, day + DAY, "late", 1)],
      });
      expect((await totals({ from: day + DAY, to: day + 2 * DAY })).map((t) => t.key)).toEqual([
        "late",
      ]);
      expect(
        (await totals({ timer_id: b.timer_id, from: day, to: day + DAY })).map((t) => t.key),
      ).toEqual(["late"]);
    });

    it("bounds a timer's labels when batches of two writers race", async () => {
      const scope = await scopeOf(ctx.store, await newAccount(ctx.store));
      const day = D0 + 7 * DAY;
      await Promise.all(
        Array.from({ length: 6 }, (_, w) =>
          ctx.store.recordRenderViews({
            counts: [],
            viewers: [],
            campaigns: Array.from({ length: 20 }, (_, i) => labelled(scope, day, `w${w}-${i}`, 1)),
          }),
        ),
      );
      const totals = await ctx.store.listAnalyticsTotals({
        ...scope,
        by: "campaign",
        from: day,
        to: day + DAY,
        limit: 200,
      });
      expect(totals).toHaveLength(CAMPAIGNS_PER_TIMER_DAY + 1);
      expect(totals.reduce((n, t) => n + t.views, 0)).toBe(120);
      expect(totals[0]).toMatchObject({ key: "other", views: 120 - CAMPAIGNS_PER_TIMER_DAY });
    });

    it("analyticsSalt gives one salt per day, also to concurrent callers", async () => {
      const day = D0 + randomUUIDDay();
      const salts = await Promise.all(
        Array.from({ length: 10 }, (_, i) => ctx.store.analyticsSalt(day, () => `salt-${i}`)),
      );
      expect(new Set(salts).size).toBe(1);
      expect(await ctx.store.analyticsSalt(day, () => "late")).toBe(salts[0]);
      expect(await ctx.store.analyticsSalt(day + DAY, () => "next")).toBe("next");
    });

    it("purge drops counts and viewer sets before the cutoff, and old salts", async () => {
      const scope = await scopeOf(ctx.store, await newAccount(ctx.store));
      const old = D0 - 100 * DAY;
      await ctx.store.recordRenderViews({
        counts: [count(scope, old + HOUR, 1), count(scope, D0 + HOUR, 1)],
        viewers: [mark(scope, old, "x", [1]), mark(scope, D0, "x", [1])],
        clicks: [click(scope, old + HOUR, 1), click(scope, D0 + HOUR, 2)],
        campaigns: [labelled(scope, old, "old", 1), labelled(scope, D0, "new", 1)],
      });
      const day = old - randomUUIDDay();
      await ctx.store.analyticsSalt(day, () => "old-salt");
      await ctx.store.purge({
        now: T0,
        request_log_before: 0,
        rate_windows_before: 0,
        webhook_deliveries_before: 0,
        render_analytics_before: D0 - 90 * DAY,
        analytics_salts_before: D0 - DAY,
      });
      const left = await list(ctx.store, scope, { from: old - DAY, granularity: "day" });
      expect(left.map((b) => [b.start, b.views, b.unique_viewers, b.clicks])).toEqual([
        [D0, 1, 1, 2],
      ]);
      const labels = await ctx.store.listAnalyticsTotals({
        ...scope,
        by: "campaign",
        from: old - DAY,
        to: D0 + DAY,
        limit: 10,
      });
      expect(labels.map((t) => t.key)).toEqual(["new"]);
      expect(await ctx.store.analyticsSalt(day, () => "fresh")).toBe("fresh");
    });
  });
}

/** A day offset no other test (or run against a shared database) uses for its salt. */
function randomUUIDDay(): number {
  return (Number.parseInt(randomUUID().slice(0, 6), 16) + 1) * DAY;
}
