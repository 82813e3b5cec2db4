import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Account, ChangeTimerInput, StoreGenerations } from "../../src/contract";
import {
  CYCLE,
  createInput,
  createTimer,
  newAccount,
  newTimer,
  type SuiteContext,
  T0,
  unique,
} from "./_fixtures";

const MINUTE = 60_000;

/** Rate-window reservations, usage counters and the cache generations. */
export function meteringTests(ctx: SuiteContext): void {
  const reserve = (window_start: number, ...buckets: [string, number, number][]) =>
    ctx.store.reserveRequests({
      window_start,
      buckets: buckets.map(([bucket, limit, want]) => ({ bucket, limit, want })),
    });

  describe("metering", () => {
    it("reads missing usage metrics as 0", async () => {
      const account = await newAccount(ctx.store);
      expect(await ctx.store.getUsage(account.id, "sandbox", CYCLE)).toEqual({
        new_timers: 0,
        api_requests: 0,
      });
    });

    it("grants min(want, room) per bucket, never past the limit, and 0 when full", async () => {
      const bucket = unique("key");
      expect(await reserve(T0, [bucket, 10, 4])).toEqual([{ bucket, granted: 4, count: 4 }]);
      expect(await reserve(T0, [bucket, 10, 4])).toEqual([{ bucket, granted: 4, count: 8 }]);
      expect(await reserve(T0, [bucket, 10, 4])).toEqual([{ bucket, granted: 2, count: 10 }]);
      expect(await reserve(T0, [bucket, 10, 4])).toEqual([{ bucket, granted: 0, count: 10 }]);
      expect(await reserve(T0, [bucket, 10, 0])).toEqual([{ bucket, granted: 0, count: 10 }]);
    });

    it("starts a new window from zero and keeps buckets apart", async () => {
      const a = unique("key");
      const b = unique("account");
      expect(await reserve(T0, [a, 1, 5], [b, 3, 2])).toEqual([
        { bucket: a, granted: 1, count: 1 },
        { bucket: b, granted: 2, count: 2 },
      ]);
      expect(await reserve(T0, [a, 1, 1], [b, 3, 5])).toEqual([
        { bucket: a, granted: 0, count: 1 },
        { bucket: b, granted: 1, count: 3 },
      ]);
      expect(await reserve(T0 + MINUTE, [a, 1, 1])).toEqual([{ bucket: a, granted: 1, count: 1 }]);
    });

    it("concurrent reservations never hand out more than the limit (property)", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 40 }),
          fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 24 }),
          async (limit, wants) => {
            const bucket = unique("race");
            const grants = await Promise.all(
              wants.map((want) => reserve(T0, [bucket, limit, want])),
            );
            const total = grants.reduce((sum, [g]) => sum + g!.granted, 0);
            const wanted = wants.reduce((sum, w) => sum + w, 0);
            expect(total).toBe(Math.min(limit, wanted));
            const [after] = await reserve(T0, [bucket, limit, 0]);
            expect(after!.count).toBe(total);
          },
        ),
        { numRuns: 15 },
      );
    });

    it("adds usage in batches, per account, environment, cycle and metric", async () => {
      const account: Account = await newAccount(ctx.store);
      const base = { account_id: account.id, cycle_id: CYCLE, metric: "api_requests" as const };
      await ctx.store.addUsage([
        { ...base, environment: "production", amount: 5 },
        { ...base, environment: "production", amount: 2 },
        { ...base, environment: "sandbox", amount: 1 },
        { ...base, environment: "sandbox", cycle_id: "2026-12", amount: 9 },
        { ...base, environment: "sandbox", amount: 0 },
      ]);
      await ctx.store.addUsage([]);
      await ctx.store.addUsage([{ ...base, environment: "production", amount: 3 }]);
      expect((await ctx.store.getUsage(account.id, "production", CYCLE)).api_requests).toBe(10);
      expect(await ctx.store.getUsage(account.id, "sandbox", CYCLE)).toEqual({
        new_timers: 0,
        api_requests: 1,
      });
      expect((await ctx.store.getUsage(account.id, "sandbox", "2026-12")).api_requests).toBe(9);
    });
  });

  describe("cache generations", () => {
    const moved = (before: StoreGenerations, after: StoreGenerations) => ({
      auth: after.auth > before.auth,
      timers: after.timers > before.timers,
    });

    it("auth moves on revoke, roll, status and plan changes; not on reads or new keys", async () => {
      const account = await newAccount(ctx.store);
      const key = () =>
        ctx.store.createApiKey({
          id: crypto.randomUUID(),
          account_id: account.id,
          environment: "production",
          prefix: unique("svc_live"),
          hash: unique("hash"),
          scopes: ["*"],
          max_active_keys: 10,
          now: T0,
        });
      const first = await key();
      let before = await ctx.store.readGenerations();
      const step = async (what: string, run: () => Promise<unknown>, auth: boolean) => {
        await run();
        const after = await ctx.store.readGenerations();
        expect(moved(before, after), what).toEqual({ auth, timers: false });
        before = after;
      };
      await step("new key", key, false);
      await step("lookup", () => ctx.store.findApiKeyByHash(first.hash), false);
      await step("suspend", () => ctx.store.setAccountStatus(account.id, "suspended"), true);
      await step("activate", () => ctx.store.setAccountStatus(account.id, "active"), true);
      await step("plan", () => ctx.store.setAccountPlan(account.id, "growth"), true);
      await step(
        "roll",
        () =>
          ctx.store.rollApiKey({
            id_or_prefix: first.id,
            expires_at: T0 + MINUTE,
            now: T0,
            replacement: () => ({
              id: crypto.randomUUID(),
              prefix: unique("svc_live"),
              hash: unique("hash"),
            }),
          }),
        true,
      );
      await step("revoke", () => ctx.store.revokeApiKey({ id_or_prefix: first.id, now: T0 }), true);
    });

    it("timers moves on every change, not on creates, reads or refused changes", async () => {
      const account = await newAccount(ctx.store);
      const before = await ctx.store.readGenerations();
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      await ctx.store.getTimer(account.id, "production", timer.id);
      const created = await ctx.store.readGenerations();
      expect(moved(before, created)).toEqual({ auth: false, timers: false });
      const change = (expected_revision: number): ChangeTimerInput => ({
        account_id: account.id,
        environment: "production",
        id: timer.id,
        expected_revision,
        actor: { key_id: null, key_prefix: null, request_id: null },
        activity_id: crypto.randomUUID(),
        now: T0 + 1,
        change: () => ({ action: "updated", changes: {}, name: "Renamed" }),
      });
      expect((await ctx.store.changeTimer(change(1))).kind).toBe("changed");
      const changed = await ctx.store.readGenerations();
      expect(moved(created, changed)).toEqual({ auth: false, timers: true });
      expect((await ctx.store.changeTimer(change(1))).kind).toBe("revision_conflict");
      expect(await ctx.store.readGenerations()).toEqual(changed);
    });
  });
}
