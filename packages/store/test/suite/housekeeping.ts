import { describe, expect, it, vi } from "vitest";
import { createInput, newAccount, newTimer, type SuiteContext, T0, unique } from "./_fixtures";

/** Service secrets and the purge of expired housekeeping rows. */
export function housekeepingTests(ctx: SuiteContext): void {
  describe("secrets and purge", () => {
    it("creates a secret once and returns it on every later call", async () => {
      const name = unique("secret");
      const create = vi.fn(() => "first");
      expect(await ctx.store.getOrCreateSecret(name, create)).toBe("first");
      expect(await ctx.store.getOrCreateSecret(name, () => "second")).toBe("first");
      expect(create).toHaveBeenCalledOnce();
      expect(await ctx.store.getOrCreateSecret(unique("secret"), () => "other")).toBe("other");
    });

    it("agrees on one secret under concurrent calls", async () => {
      const name = unique("secret");
      const values = await Promise.all(
        Array.from({ length: 10 }, (_, i) => ctx.store.getOrCreateSecret(name, () => `v${i}`)),
      );
      expect(new Set(values).size).toBe(1);
      expect(await ctx.store.getOrCreateSecret(name, () => "late")).toBe(values[0]);
    });

    it("purges rate windows older than rate_windows_before, keeping newer ones", async () => {
      const bucket = unique("key");
      const count = async (window_start: number) => {
        const [grant] = await ctx.store.reserveRequests({
          window_start,
          buckets: [{ bucket, limit: 1, want: 1 }],
        });
        return { allowed: grant!.granted === 1 };
      };
      await count(T0);
      await count(T0 + 60_000);
      await ctx.store.purge({
        now: T0,
        request_log_before: 0,
        rate_windows_before: T0 + 60_000,
        webhook_deliveries_before: 0,
      });
      expect((await count(T0)).allowed).toBe(true);
      expect((await count(T0 + 60_000)).allowed).toBe(false);
    });

    it("keeps live idempotency records through a purge", async () => {
      const account = await newAccount(ctx.store);
      const idempotency = { key: unique("idem"), fingerprint: "fp", expires_at: T0 + 10 };
      await ctx.store.createTimer(createInput(newTimer(account), { idempotency }));
      await ctx.store.purge({
        now: T0 + 9,
        request_log_before: 0,
        rate_windows_before: 0,
        webhook_deliveries_before: 0,
      });
      const again = createInput(newTimer(account), { idempotency, now: T0 + 9 });
      expect((await ctx.store.createTimer(again)).kind).toBe("replayed");
      await ctx.store.purge({
        now: T0 + 10,
        request_log_before: 0,
        rate_windows_before: 0,
        webhook_deliveries_before: 0,
      });
      expect((await ctx.store.createTimer({ ...again, now: T0 + 10 })).kind).toBe("created");
    });
  });
}
