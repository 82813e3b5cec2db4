import { describe, expect, it } from "vitest";
import type { CreateTimerOutcome } from "../../src/contract";
import {
  CYCLE,
  createInput,
  newAccount,
  newTimer,
  type SuiteContext,
  T0,
  unique,
} from "./_fixtures";

function tally(outcomes: CreateTimerOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o.kind] = (counts[o.kind] ?? 0) + 1;
  return counts;
}

/** Concurrent creates: the allowance and idempotency keys hold under contention. */
export function concurrencyTests(ctx: SuiteContext): void {
  describe("concurrency", () => {
    it("200 concurrent creates against an allowance of 100 create exactly 100", async () => {
      const account = await newAccount(ctx.store);
      const allowance = { cycle_id: CYCLE, limit: 100 };
      const outcomes = await Promise.all(
        Array.from({ length: 200 }, () =>
          ctx.store.createTimer(createInput(newTimer(account), { allowance })),
        ),
      );
      expect(tally(outcomes)).toEqual({ created: 100, quota_exhausted: 100 });
      for (const o of outcomes) {
        if (o.kind === "quota_exhausted")
          expect(o).toEqual({ kind: o.kind, used: 100, limit: 100 });
      }
      const listed = await ctx.store.listTimers({
        account_id: account.id,
        environment: "production",
        statuses: ["draft", "published", "archived"],
        sort: { field: "created_at", direction: "asc" },
        limit: 1000,
      });
      expect(listed).toHaveLength(100);
      expect((await ctx.store.getUsage(account.id, "production", CYCLE)).new_timers).toBe(100);
    });

    it("20 concurrent creates with one idempotency key create one timer and replay it", async () => {
      const account = await newAccount(ctx.store);
      const idempotency = { key: unique("idem"), fingerprint: "fp", expires_at: T0 + 86_400_000 };
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () =>
          ctx.store.createTimer(createInput(newTimer(account), { idempotency })),
        ),
      );
      expect(tally(outcomes)).toEqual({ created: 1, replayed: 19 });
      const created = outcomes.find((o) => o.kind === "created")!;
      for (const o of outcomes) {
        if (o.kind === "replayed") expect(o.response).toEqual(created.response);
      }
      expect((await ctx.store.getUsage(account.id, "production", CYCLE)).new_timers).toBe(1);
    });
  });
}
