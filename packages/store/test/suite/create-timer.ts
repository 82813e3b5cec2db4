import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import type { Account, CreateTimerInput, Environment, Store } from "../../src/contract";
import {
  CYCLE,
  createInput,
  createTimer,
  deleteTimer,
  newAccount,
  newTimer,
  type SuiteContext,
  T0,
  unique,
} from "./_fixtures";

const HOUR = 3_600_000;

/** A create input carrying an idempotency key, valid for 24 hours from T0. */
function keyed(
  account: Account,
  key: string,
  fingerprint: string,
  overrides: Partial<Omit<CreateTimerInput, "timer">> & { environment?: Environment } = {},
): CreateTimerInput {
  const { environment, ...rest } = overrides;
  return createInput(newTimer(account, environment ? { environment } : {}), {
    idempotency: { key, fingerprint, expires_at: T0 + 24 * HOUR },
    ...rest,
  });
}

/** Every timer of an account and environment, in creation order. */
function allTimers(store: Store, account: Account, environment: Environment = "production") {
  return store.listTimers({
    account_id: account.id,
    environment,
    statuses: ["draft", "published", "archived"],
    sort: { field: "created_at", direction: "asc" },
    limit: 1000,
  });
}

/** The atomic create: idempotent replay, conflicts, the allowance, and reads by scope. */
export function createTimerTests(ctx: SuiteContext): void {
  describe("createTimer", () => {
    it("inserts at revision 1, reserves one unit and keeps the response", async () => {
      const account = await newAccount(ctx.store);
      const timer = newTimer(account, {
        status: "published",
        published_at: T0,
        data: { deadline_at: "2026-12-01T00:00:00Z", look: { label: "Jours ⏳", sizes: [1, 2] } },
      });
      const respond = vi.fn(createInput(timer).respond);
      const outcome = await ctx.store.createTimer(createInput(timer, { respond }));
      const expected = { ...timer, revision: 1 };
      expect(outcome).toEqual({
        kind: "created",
        timer: expected,
        response: respond.mock.results[0]?.value,
      });
      expect(respond).toHaveBeenCalledExactlyOnceWith(expected);
      expect(await ctx.store.getTimer(account.id, "production", timer.id)).toEqual(expected);
      expect((await ctx.store.getUsage(account.id, "production", CYCLE)).new_timers).toBe(1);
    });

    it("replays the stored response byte for byte on the same key and fingerprint", async () => {
      const account = await newAccount(ctx.store);
      const key = unique("idem");
      const body = '{"data":{"name":"Lancement 🚀","note":"\\u00e9\\n"},  "x": 1}';
      const first = await ctx.store.createTimer(
        keyed(account, key, "fp-1", {
          respond: () => ({ status: 201, headers: { etag: '"1"', "x-a": "b" }, body }),
        }),
      );
      expect(first.kind).toBe("created");
      const respond = vi.fn(() => ({ status: 500, headers: {}, body: "wrong" }));
      const replay = await ctx.store.createTimer(
        keyed(account, key, "fp-1", { respond, now: T0 + HOUR }),
      );
      expect(replay).toEqual({
        kind: "replayed",
        response: { status: 201, headers: { etag: '"1"', "x-a": "b" }, body },
      });
      expect(replay.kind === "replayed" && replay.response.body === body).toBe(true);
      expect(respond).not.toHaveBeenCalled();
      expect(await allTimers(ctx.store, account)).toHaveLength(1);
      expect((await ctx.store.getUsage(account.id, "production", CYCLE)).new_timers).toBe(1);
    });

    it("rejects the same key with another fingerprint, storing nothing", async () => {
      const account = await newAccount(ctx.store);
      const key = unique("idem");
      await createTimer(ctx.store, keyed(account, key, "fp-1"));
      const input = keyed(account, key, "fp-2");
      expect(await ctx.store.createTimer(input)).toEqual({ kind: "idempotency_conflict" });
      expect(await ctx.store.getTimer(account.id, "production", input.timer.id)).toBeNull();
      expect((await ctx.store.getUsage(account.id, "production", CYCLE)).new_timers).toBe(1);
    });

    it("replays a known key even once the allowance is spent", async () => {
      const account = await newAccount(ctx.store);
      const key = unique("idem");
      const allowance = { cycle_id: CYCLE, limit: 1 };
      await createTimer(ctx.store, keyed(account, key, "fp-1", { allowance }));
      expect((await ctx.store.createTimer(keyed(account, key, "fp-1", { allowance }))).kind).toBe(
        "replayed",
      );
    });

    it("answers quota_exhausted with used and limit, storing nothing", async () => {
      const account = await newAccount(ctx.store);
      const allowance = { cycle_id: CYCLE, limit: 2 };
      await createTimer(ctx.store, createInput(newTimer(account), { allowance }));
      await createTimer(ctx.store, createInput(newTimer(account), { allowance }));
      const key = unique("idem");
      const refused = keyed(account, key, "fp-1", { allowance });
      expect(await ctx.store.createTimer(refused)).toEqual({
        kind: "quota_exhausted",
        used: 2,
        limit: 2,
      });
      expect(await ctx.store.getTimer(account.id, "production", refused.timer.id)).toBeNull();
      expect((await ctx.store.getUsage(account.id, "production", CYCLE)).new_timers).toBe(2);
      // The key was not recorded: once the limit is raised, the same request executes.
      const retry = keyed(account, key, "fp-1", { allowance: { cycle_id: CYCLE, limit: 3 } });
      expect((await ctx.store.createTimer(retry)).kind).toBe("created");
      expect((await ctx.store.getUsage(account.id, "production", CYCLE)).new_timers).toBe(3);
    });

    it("meters each cycle separately", async () => {
      const account = await newAccount(ctx.store);
      await createTimer(
        ctx.store,
        createInput(newTimer(account), { allowance: { cycle_id: CYCLE, limit: 1 } }),
      );
      const next = { cycle_id: "2026-12", limit: 1 };
      expect(
        (await ctx.store.createTimer(createInput(newTimer(account), { allowance: next }))).kind,
      ).toBe("created");
    });

    it("creates every time without an idempotency key", async () => {
      const account = await newAccount(ctx.store);
      await createTimer(ctx.store, createInput(newTimer(account)));
      await createTimer(ctx.store, createInput(newTimer(account)));
      expect(await allTimers(ctx.store, account)).toHaveLength(2);
    });

    it("treats an expired idempotency record as absent and overwrites it", async () => {
      const account = await newAccount(ctx.store);
      const key = unique("idem");
      const idempotency = (fingerprint: string, expires_at: number) => ({
        key,
        fingerprint,
        expires_at,
      });
      await createTimer(
        ctx.store,
        createInput(newTimer(account), { idempotency: idempotency("fp-1", T0 + HOUR) }),
      );
      // At expires_at the record is gone: another body executes instead of conflicting.
      const second = createInput(newTimer(account), {
        idempotency: idempotency("fp-2", T0 + 3 * HOUR),
        now: T0 + HOUR,
      });
      expect((await ctx.store.createTimer(second)).kind).toBe("created");
      const third = createInput(newTimer(account), {
        idempotency: idempotency("fp-2", T0 + 5 * HOUR),
        now: T0 + 2 * HOUR,
      });
      const replay = await ctx.store.createTimer(third);
      expect(replay.kind).toBe("replayed");
      expect(replay.kind === "replayed" && JSON.parse(replay.response.body).data.id).toBe(
        second.timer.id,
      );
      expect(
        await ctx.store.createTimer({ ...third, idempotency: idempotency("fp-1", T0 + 5 * HOUR) }),
      ).toEqual({ kind: "idempotency_conflict" });
    });

    it("scopes idempotency keys by account and by environment", async () => {
      const a = await newAccount(ctx.store);
      const b = await newAccount(ctx.store);
      const key = unique("idem");
      await createTimer(ctx.store, keyed(a, key, "fp-1"));
      expect((await ctx.store.createTimer(keyed(b, key, "fp-2"))).kind).toBe("created");
      expect(
        (await ctx.store.createTimer(keyed(a, key, "fp-3", { environment: "sandbox" }))).kind,
      ).toBe("created");
      expect((await ctx.store.createTimer(keyed(a, key, "fp-1"))).kind).toBe("replayed");
    });

    it("reads a timer only within its account and environment", async () => {
      const owner = await newAccount(ctx.store);
      const stranger = await newAccount(ctx.store);
      const timer = await createTimer(
        ctx.store,
        createInput(newTimer(owner, { environment: "sandbox" })),
      );
      expect(await ctx.store.getTimer(owner.id, "sandbox", timer.id)).toEqual(timer);
      expect(await ctx.store.getTimer(owner.id, "production", timer.id)).toBeNull();
      expect(await ctx.store.getTimer(stranger.id, "sandbox", timer.id)).toBeNull();
      expect(await ctx.store.getTimer(owner.id, "sandbox", randomUUID())).toBeNull();
    });

    it("soft-deletes a timer through changeTimer", async () => {
      const owner = await newAccount(ctx.store);
      const stranger = await newAccount(ctx.store);
      const timer = await createTimer(ctx.store, createInput(newTimer(owner)));
      expect(await deleteTimer(ctx.store, stranger.id, "production", timer.id, T0)).toBe(false);
      expect(await deleteTimer(ctx.store, owner.id, "sandbox", timer.id, T0)).toBe(false);
      expect(await deleteTimer(ctx.store, owner.id, "production", timer.id, T0)).toBe(true);
      expect(await ctx.store.getTimer(owner.id, "production", timer.id)).toBeNull();
      expect(await allTimers(ctx.store, owner)).toEqual([]);
      expect(await deleteTimer(ctx.store, owner.id, "production", timer.id, T0)).toBe(false);
      // A deleted timer still used its unit of the allowance.
      expect((await ctx.store.getUsage(owner.id, "production", CYCLE)).new_timers).toBe(1);
    });
  });
}
