import { describe, expect, it } from "vitest";
import type { Account, CountRequestInput, Environment } from "../../src/types";
import { CYCLE, newAccount, type SuiteContext, T0, unique } from "./_fixtures";

const MINUTE = 60_000;

/** A count input over the given buckets, metering api_requests for the account. */
function countInput(
  account: Account,
  buckets: Record<string, number>,
  window_start = T0,
  environment: Environment = "production",
): CountRequestInput {
  return {
    buckets: Object.entries(buckets).map(([bucket, limit]) => ({ bucket, limit })),
    window_start,
    usage: { account_id: account.id, environment, cycle_id: CYCLE },
  };
}

/** Fixed-window rate counting and usage counters. */
export function meteringTests(ctx: SuiteContext): void {
  describe("metering", () => {
    it("reads missing usage metrics as 0", async () => {
      const account = await newAccount(ctx.store);
      expect(await ctx.store.getUsage(account.id, "sandbox", CYCLE)).toEqual({
        new_timers: 0,
        api_requests: 0,
      });
    });

    it("allows up to the limit, then refuses without incrementing anything", async () => {
      const account = await newAccount(ctx.store);
      const bucket = unique("key");
      for (let n = 1; n <= 3; n++) {
        expect(await ctx.store.countRequest(countInput(account, { [bucket]: 3 }))).toEqual({
          allowed: true,
          counts: { [bucket]: n },
        });
      }
      for (let n = 0; n < 2; n++) {
        expect(await ctx.store.countRequest(countInput(account, { [bucket]: 3 }))).toEqual({
          allowed: false,
          counts: { [bucket]: 3 },
        });
      }
      // api_requests counts allowed requests only.
      expect((await ctx.store.getUsage(account.id, "production", CYCLE)).api_requests).toBe(3);
    });

    it("starts a new window from zero", async () => {
      const account = await newAccount(ctx.store);
      const bucket = unique("key");
      await ctx.store.countRequest(countInput(account, { [bucket]: 1 }));
      expect((await ctx.store.countRequest(countInput(account, { [bucket]: 1 }))).allowed).toBe(
        false,
      );
      const next = await ctx.store.countRequest(countInput(account, { [bucket]: 1 }, T0 + MINUTE));
      expect(next).toEqual({ allowed: true, counts: { [bucket]: 1 } });
    });

    it("lets the tighter of two buckets block, incrementing neither", async () => {
      const account = await newAccount(ctx.store);
      const key = unique("key");
      const acct = unique("account");
      const limits = { [key]: 5, [acct]: 2 };
      await ctx.store.countRequest(countInput(account, limits));
      expect(await ctx.store.countRequest(countInput(account, limits))).toEqual({
        allowed: true,
        counts: { [key]: 2, [acct]: 2 },
      });
      expect(await ctx.store.countRequest(countInput(account, limits))).toEqual({
        allowed: false,
        counts: { [key]: 2, [acct]: 2 },
      });
      // The key bucket was not charged for the refused request.
      expect(await ctx.store.countRequest(countInput(account, { [key]: 5 }))).toEqual({
        allowed: true,
        counts: { [key]: 3 },
      });
    });

    it("keeps buckets and usage counters apart", async () => {
      const account = await newAccount(ctx.store);
      const a = unique("key");
      const b = unique("key");
      await ctx.store.countRequest(countInput(account, { [a]: 10 }));
      await ctx.store.countRequest(countInput(account, { [a]: 10 }));
      expect(await ctx.store.countRequest(countInput(account, { [b]: 10 }, T0, "sandbox"))).toEqual(
        { allowed: true, counts: { [b]: 1 } },
      );
      expect((await ctx.store.getUsage(account.id, "production", CYCLE)).api_requests).toBe(2);
      expect((await ctx.store.getUsage(account.id, "sandbox", CYCLE)).api_requests).toBe(1);
      expect((await ctx.store.getUsage(account.id, "production", "2026-12")).api_requests).toBe(0);
    });
  });
}
