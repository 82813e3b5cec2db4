import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Account, RequestLogEntry } from "../../src/contract";
import { newAccount, type SuiteContext, T0 } from "./_fixtures";

function entry(account: Account, overrides: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    id: randomUUID(),
    account_id: account.id,
    environment: "production",
    key_id: "key-1",
    key_prefix: "svc_live_abcdefgh",
    request_id: randomUUID(),
    method: "GET",
    route: "/api/v1/timers",
    status: 200,
    error_code: null,
    duration_ms: 1.25,
    created_at: T0,
    ...overrides,
  };
}

/** The request log: batch appends, the optional listing, and purging by age. */
export function requestLogTests(ctx: SuiteContext): void {
  describe("request log", () => {
    it("appends batches, including an empty one", async () => {
      const account = await newAccount(ctx.store);
      await ctx.store.logRequests([]);
      await ctx.store.logRequests([entry(account), entry(account, { status: 404 })]);
    });

    it("counts entries per UTC day within the account, environment and range", async () => {
      const account = await newAccount(ctx.store);
      const other = await newAccount(ctx.store);
      const day = Math.floor(T0 / 86_400_000) * 86_400_000;
      await ctx.store.logRequests([
        entry(account, { created_at: day - 1 }),
        entry(account, { created_at: day }),
        entry(account, { created_at: day + 5 }),
        entry(account, { created_at: day + 86_400_000 + 1 }),
        entry(account, { created_at: day + 2 * 86_400_000 }),
        entry(account, { created_at: day + 3, environment: "sandbox" }),
        entry(other, { created_at: day + 3 }),
      ]);
      expect(
        await ctx.store.countRequestsByDay({
          account_id: account.id,
          environment: "production",
          since: day,
          until: day + 2 * 86_400_000,
        }),
      ).toEqual([
        { day, count: 2 },
        { day: day + 86_400_000, count: 1 },
      ]);
    });

    it("lists newest first with AND-ed filters and keyset paging", async (t) => {
      const list = ctx.store.listRequestLog?.bind(ctx.store);
      if (!list) return t.skip();
      const account = await newAccount(ctx.store);
      const other = await newAccount(ctx.store);
      const entries = [
        entry(account, { created_at: T0 + 1 }),
        entry(account, { created_at: T0 + 2, status: 429, error_code: "rate_limited" }),
        entry(account, { created_at: T0 + 2, key_id: "key-2", key_prefix: "svc_live_zzzzzzzz" }),
        entry(account, { created_at: T0 + 3, route: "/api/v1/usage", duration_ms: 7 }),
        entry(account, { created_at: T0 + 4, environment: "sandbox" }),
        entry(other, { created_at: T0 + 5 }),
      ];
      await ctx.store.logRequests(entries);
      const scope = { account_id: account.id, environment: "production" as const };
      const newestFirst = entries
        .slice(0, 4)
        .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1));
      expect(await list({ ...scope, limit: 10 })).toEqual(newestFirst);
      const page1 = await list({ ...scope, limit: 2 });
      const page2 = await list({
        ...scope,
        limit: 10,
        after: { value: page1[1]!.created_at, id: page1[1]!.id },
      });
      expect([...page1, ...page2]).toEqual(newestFirst);
      expect(await list({ ...scope, status: 429, limit: 10 })).toEqual([entries[1]]);
      expect(await list({ ...scope, route: "/api/v1/usage", limit: 10 })).toEqual([entries[3]]);
      expect(await list({ ...scope, key_id: "key-2", limit: 10 })).toEqual([entries[2]]);
      expect(await list({ ...scope, key_prefix: "svc_live_zzzzzzzz", limit: 10 })).toEqual([
        entries[2],
      ]);
      const byRequest = { ...scope, request_id: entries[0]!.request_id, limit: 10 };
      expect(await list(byRequest)).toEqual([entries[0]]);
      expect(await list({ ...byRequest, status: 500 })).toEqual([]);
      // The instant a request id carries narrows the lookup and never widens it.
      expect(await list({ ...byRequest, created_at: T0 + 1 })).toEqual([entries[0]]);
      expect(await list({ ...byRequest, created_at: T0 + 2 })).toEqual([]);
      const atT2 = entries.slice(1, 3).sort((a, b) => (a.id < b.id ? 1 : -1));
      expect(await list({ ...scope, created_at: T0 + 2, limit: 10 })).toEqual(atT2);
      expect(
        await list({
          ...scope,
          created_at: T0 + 2,
          limit: 10,
          after: { value: T0 + 2, id: atT2[0]!.id },
        }),
      ).toEqual([atT2[1]]);
    });

    it("writes a batch of any size whole, every value as given", async (t) => {
      const list = ctx.store.listRequestLog?.bind(ctx.store);
      if (!list) return t.skip();
      const account = await newAccount(ctx.store);
      // Sizes around the adapters' statement sizes (SQLite: 32 rows per statement, the rest
      // in statements of 16, 8, 4, 2 and 1 rows).
      for (const size of [1, 2, 13, 31, 32, 33, 63, 70]) {
        const batch = Array.from({ length: size }, (_, i) =>
          entry(account, {
            created_at: T0 + size * 1000 + i,
            status: 200 + (i % 300),
            error_code: i % 2 ? `code_${i}` : null,
            duration_ms: i / 8,
            route: `/api/v1/r${i}`,
          }),
        );
        await ctx.store.logRequests(batch);
        const rows = await list({
          account_id: account.id,
          environment: "production",
          limit: 1000,
        });
        const written = rows.filter((r) => r.created_at >= T0 + size * 1000);
        expect(written.filter((r) => r.created_at < T0 + (size + 1) * 1000)).toEqual(
          [...batch].reverse(),
        );
      }
    });

    it("purges entries older than request_log_before", async (t) => {
      const list = ctx.store.listRequestLog?.bind(ctx.store);
      if (!list) return t.skip();
      const account = await newAccount(ctx.store);
      const old = entry(account, { created_at: T0 - 1 });
      const kept = entry(account, { created_at: T0 });
      await ctx.store.logRequests([old, kept]);
      await ctx.store.purge({
        now: T0,
        request_log_before: T0,
        rate_windows_before: 0,
        webhook_deliveries_before: 0,
      });
      expect(await list({ account_id: account.id, environment: "production", limit: 10 })).toEqual([
        kept,
      ]);
    });
  });
}
