import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  createInput,
  createTimer,
  deleteTimer,
  newAccount,
  newTimer,
  type SuiteContext,
  T0,
} from "./_fixtures";

/** findTimerById and recordFirstView (the public render routes). */
export function viewerTests(ctx: SuiteContext): void {
  describe("public lookups and first views", () => {
    it("findTimerById finds a live timer of any account, not a deleted one", async () => {
      const account = await newAccount(ctx.store);
      const timer = await createTimer(
        ctx.store,
        createInput(newTimer(account, { environment: "sandbox" })),
      );
      expect(await ctx.store.findTimerById(timer.id)).toEqual(timer);
      expect(await ctx.store.findTimerById(randomUUID())).toBeNull();
      await deleteTimer(ctx.store, account.id, "sandbox", timer.id);
      expect(await ctx.store.findTimerById(timer.id)).toBeNull();
    });

    it("recordFirstView keeps the first instant per (timer, viewer), also under concurrency", async () => {
      const timer = randomUUID();
      expect(await ctx.store.recordFirstView({ timer_id: timer, viewer: "a", now: T0 })).toBe(T0);
      expect(
        await ctx.store.recordFirstView({ timer_id: timer, viewer: "a", now: T0 + 5000 }),
      ).toBe(T0);
      expect(await ctx.store.recordFirstView({ timer_id: timer, viewer: "b", now: T0 + 7 })).toBe(
        T0 + 7,
      );
      const other = randomUUID();
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          ctx.store.recordFirstView({ timer_id: other, viewer: "x", now: T0 + i }),
        ),
      );
      expect(new Set(results)).toEqual(new Set([T0]));
    });
  });
}
