import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type {
  NewWebhookEvent,
  Store,
  TimerRecord,
  ViewerStartInput,
  WebhookEventType,
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
import { createDestination, newRule } from "./webhooks";

const END = T0 + 60_000;

function viewerEvent(type: WebhookEventType, at: number): NewWebhookEvent {
  return {
    id: randomUUID(),
    type,
    occurred_at: at,
    payload: (timer: TimerRecord) => ({ type, timer: timer.id, revision: timer.revision }),
  };
}

function start(timer: TimerRecord, viewer: string, over: Partial<ViewerStartInput> = {}) {
  return {
    timer_id: timer.id,
    viewer,
    recipient: viewer.slice(2),
    context: { start_at: T0 },
    started_at: T0,
    end_check_at: END,
    started: viewerEvent("viewer.started", T0),
    max_per_timer_day: 100,
    now: T0,
    ...over,
  } satisfies ViewerStartInput;
}

/** A published timer with a destination, and a rule for `events` unless none are given. */
async function setup(store: Store, events: WebhookEventType[]) {
  const account = await newAccount(store);
  const timer = await createTimer(
    store,
    createInput(newTimer(account, { type: "duration", status: "published" })),
  );
  const destination = await createDestination(store, account);
  const rule = newRule(timer, destination.id, events);
  if (events.length > 0) {
    await store.createWebhookRule({ rule, max_rules_per_timer: 20 });
  }
  const deliveries = async () =>
    (
      await store.listWebhookDeliveries({
        account_id: account.id,
        environment: "production",
        limit: 100,
      })
    ).map((d) => ({
      type: d.event.type,
      rule_id: d.rule_id,
      payload: JSON.parse(d.event.payload),
    }));
  const due = async (now: number) =>
    (await store.listDueViewerEnds({ now, limit: 10_000 })).filter((d) => d.timer_id === timer.id);
  return { account, timer, rule, deliveries, due };
}

/** recordViewerStart, listDueViewerEnds and advanceViewerEnd (per-recipient events). */
export function viewerEventTests(ctx: SuiteContext): void {
  describe("per-recipient events", () => {
    it("records nothing for a timer without viewer rules, or an unknown timer", async () => {
      const { timer, deliveries, due } = await setup(ctx.store, []);
      expect(await ctx.store.recordViewerStart(start(timer, "r:ann"))).toBe("no_rules");
      expect(
        await ctx.store.recordViewerStart({ ...start(timer, "r:ann"), timer_id: randomUUID() }),
      ).toBe("not_found");
      expect(await deliveries()).toEqual([]);
      expect(await due(END)).toEqual([]);
    });

    it("a rule for other events is no viewer rule; a deleted timer is not found", async () => {
      const { account, timer, deliveries } = await setup(ctx.store, ["timer.ended"]);
      expect(await ctx.store.recordViewerStart(start(timer, "r:ann"))).toBe("no_rules");
      const ruled = await setup(ctx.store, ["viewer.started"]);
      expect(await deleteTimer(ctx.store, ruled.account.id, "production", ruled.timer.id)).toBe(
        true,
      );
      expect(await ctx.store.recordViewerStart(start(ruled.timer, "r:ann"))).toBe("not_found");
      expect(await deliveries()).toEqual([]);
      expect(await ruled.deliveries()).toEqual([]);
      expect(account.id).not.toBe(ruled.account.id);
    });

    it("queues viewer.started once per viewer, also under concurrency, and schedules the end", async () => {
      const { timer, rule, deliveries, due } = await setup(ctx.store, [
        "viewer.started",
        "viewer.ended",
      ]);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, () => ctx.store.recordViewerStart(start(timer, "r:ann"))),
      );
      expect(outcomes.filter((o) => o === "recorded")).toHaveLength(1);
      expect(outcomes.filter((o) => o !== "recorded")).toEqual(Array(9).fill("duplicate"));
      expect(await deliveries()).toEqual([
        {
          type: "viewer.started",
          rule_id: rule.id,
          payload: { type: "viewer.started", timer: timer.id, revision: 1 },
        },
      ]);
      expect(await due(END - 1)).toEqual([]);
      const [owed] = await due(END);
      expect(owed).toMatchObject({
        viewer: "r:ann",
        recipient: "ann",
        context: { start_at: T0 },
        started_at: T0,
        end_check_at: END,
      });
      expect(owed!.timer?.id).toBe(timer.id);
    });

    it("fires viewer.ended once by compare-and-set, and only to rules that want it", async () => {
      const { timer, rule, deliveries, due } = await setup(ctx.store, ["viewer.ended"]);
      expect(await ctx.store.recordViewerStart(start(timer, "r:bo"))).toBe("recorded");
      // Only viewer.ended is wanted: the start queued nothing.
      expect(await deliveries()).toEqual([]);
      const [owed] = await due(END);
      const advance = {
        timer_id: timer.id,
        viewer: "r:bo",
        expected_check_at: owed!.end_check_at,
        timer_revision: timer.revision,
        now: END,
      };
      // The end moved (an extension): look again later, fire nothing.
      expect(
        await ctx.store.advanceViewerEnd({ ...advance, next_check_at: END + 5000, ended: null }),
      ).toBe(true);
      expect(await due(END)).toEqual([]);
      const [later] = await due(END + 5000);
      const fire = {
        ...advance,
        expected_check_at: later!.end_check_at,
        next_check_at: null,
        ended: viewerEvent("viewer.ended", END + 5000),
      };
      // Two workers at once: one wins.
      const results = await Promise.all([
        ctx.store.advanceViewerEnd(fire),
        ctx.store.advanceViewerEnd({ ...fire, ended: viewerEvent("viewer.ended", END + 5000) }),
      ]);
      expect(results.sort()).toEqual([false, true]);
      expect((await deliveries()).map((d) => [d.type, d.rule_id])).toEqual([
        ["viewer.ended", rule.id],
      ]);
      expect(await due(END + 10 * 60_000)).toEqual([]);
      // A stale revision is refused too.
      expect(await ctx.store.advanceViewerEnd({ ...fire, timer_revision: 99 })).toBe(false);
    });

    it("tracks at most max_per_timer_day viewers per timer per UTC day", async () => {
      const { timer, deliveries } = await setup(ctx.store, ["viewer.started"]);
      const cap = { max_per_timer_day: 2 };
      expect(await ctx.store.recordViewerStart(start(timer, "r:a", cap))).toBe("recorded");
      expect(await ctx.store.recordViewerStart(start(timer, "r:b", cap))).toBe("recorded");
      expect(await ctx.store.recordViewerStart(start(timer, "r:c", cap))).toBe("capped");
      // The capped viewer was not recorded: the next day it is new.
      const nextDay = T0 + 86_400_000;
      expect(await ctx.store.recordViewerStart(start(timer, "r:c", { ...cap, now: nextDay }))).toBe(
        "recorded",
      );
      expect(await deliveries()).toHaveLength(3);
    });

    it("purge drops settled viewers started before the cutoff, never one whose end is owed", async () => {
      const { timer, due } = await setup(ctx.store, ["viewer.started", "viewer.ended"]);
      await ctx.store.recordViewerStart(start(timer, "r:owed"));
      await ctx.store.recordViewerStart(start(timer, "r:done"));
      const [, done] = (await due(END)).sort((a, b) => (a.viewer < b.viewer ? -1 : 1));
      expect(done!.viewer).toBe("r:owed");
      const settled = (await due(END)).find((d) => d.viewer === "r:done")!;
      await ctx.store.advanceViewerEnd({
        timer_id: timer.id,
        viewer: "r:done",
        expected_check_at: settled.end_check_at,
        timer_revision: timer.revision,
        next_check_at: null,
        ended: null,
        now: END,
      });
      await ctx.store.purge({
        now: T0,
        request_log_before: 0,
        rate_windows_before: 0,
        webhook_deliveries_before: 0,
        viewer_events_before: T0 + 1,
      });
      expect((await due(END)).map((d) => d.viewer)).toEqual(["r:owed"]);
      // The settled viewer is forgotten: it would be tracked again.
      expect(await ctx.store.recordViewerStart(start(timer, "r:done"))).toBe("recorded");
      expect(await ctx.store.recordViewerStart(start(timer, "r:owed"))).toBe("duplicate");
    });
  });
}
