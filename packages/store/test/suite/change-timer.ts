import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ChangeTimerInput, TimerRecord } from "../../src/contract";
import {
  createInput,
  createTimer,
  deleteTimer,
  newAccount,
  newTimer,
  type SuiteContext,
  T0,
} from "./_fixtures";

const actor = { key_id: "key-1", key_prefix: "svc_live_abcd1234", request_id: "req-1" };

function rename(
  timer: TimerRecord,
  name: string,
  over: Partial<ChangeTimerInput> = {},
): ChangeTimerInput {
  return {
    account_id: timer.account_id,
    environment: timer.environment,
    id: timer.id,
    expected_revision: timer.revision,
    actor,
    activity_id: randomUUID(),
    now: T0 + 1000,
    change: (current) => ({
      action: "updated",
      changes: { name: { before: current.name, after: name } },
      name,
    }),
    ...over,
  };
}

/** changeTimer (revision check + change + activity, atomically) and listActivity. */
export function changeTimerTests(ctx: SuiteContext): void {
  describe("changeTimer and listActivity", () => {
    it("applies a change, bumps the revision and updated_at, records the activity", async () => {
      const account = await newAccount(ctx.store);
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      const outcome = await ctx.store.changeTimer(rename(timer, "Renamed"));
      expect(outcome.kind).toBe("changed");
      if (outcome.kind !== "changed") return;
      expect(outcome.timer).toMatchObject({ name: "Renamed", revision: 2, updated_at: T0 + 1000 });
      expect(await ctx.store.getTimer(account.id, "production", timer.id)).toEqual(outcome.timer);
      const activity = await ctx.store.listActivity({
        account_id: account.id,
        environment: "production",
        timer_id: timer.id,
        limit: 10,
      });
      expect(activity).toEqual([outcome.activity]);
      expect(activity[0]).toMatchObject({
        action: "updated",
        key_id: "key-1",
        key_prefix: "svc_live_abcd1234",
        request_id: "req-1",
        changes: { name: { before: "Launch", after: "Renamed" } },
      });
    });

    it("a stale revision is a conflict and writes nothing", async () => {
      const account = await newAccount(ctx.store);
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      await ctx.store.changeTimer(rename(timer, "First"));
      const stale = await ctx.store.changeTimer(rename(timer, "Second"));
      expect(stale.kind).toBe("revision_conflict");
      if (stale.kind === "revision_conflict") expect(stale.current.name).toBe("First");
      const activity = await ctx.store.listActivity({
        account_id: account.id,
        environment: "production",
        timer_id: timer.id,
        limit: 10,
      });
      expect(activity).toHaveLength(1);
    });

    it("concurrent changes with one revision: exactly one wins", async () => {
      const account = await newAccount(ctx.store);
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => ctx.store.changeTimer(rename(timer, `N${i}`))),
      );
      expect(outcomes.filter((o) => o.kind === "changed")).toHaveLength(1);
      expect(outcomes.filter((o) => o.kind === "revision_conflict")).toHaveLength(19);
      expect((await ctx.store.getTimer(account.id, "production", timer.id))!.revision).toBe(2);
    });

    it("a change that throws writes nothing and rejects alone", async () => {
      const account = await newAccount(ctx.store);
      const a = await createTimer(ctx.store, createInput(newTimer(account)));
      const b = await createTimer(ctx.store, createInput(newTimer(account)));
      const refused = ctx.store.changeTimer(
        rename(a, "x", {
          change: () => {
            throw new Error("not allowed in this state");
          },
        }),
      );
      const fine = ctx.store.changeTimer(rename(b, "Fine"));
      await expect(refused).rejects.toThrow("not allowed in this state");
      expect((await fine).kind).toBe("changed");
      expect((await ctx.store.getTimer(account.id, "production", a.id))!.revision).toBe(1);
    });

    it("is scoped by account and environment; deleted timers are gone", async () => {
      const owner = await newAccount(ctx.store);
      const stranger = await newAccount(ctx.store);
      const timer = await createTimer(ctx.store, createInput(newTimer(owner)));
      expect(
        (await ctx.store.changeTimer(rename(timer, "x", { account_id: stranger.id }))).kind,
      ).toBe("not_found");
      expect(
        (await ctx.store.changeTimer(rename(timer, "x", { environment: "sandbox" }))).kind,
      ).toBe("not_found");
      expect(await deleteTimer(ctx.store, owner.id, "production", timer.id)).toBe(true);
      expect((await ctx.store.changeTimer(rename(timer, "x", { expected_revision: 2 }))).kind).toBe(
        "not_found",
      );
    });

    it("changes status, published_at and data", async () => {
      const account = await newAccount(ctx.store);
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      const outcome = await ctx.store.changeTimer(
        rename(timer, "", {
          change: (current) => ({
            action: "published",
            changes: { status: { before: current.status, after: "published" } },
            status: "published",
            published_at: T0 + 5,
            data: { ...current.data, clock: { paused_at: null } },
          }),
        }),
      );
      expect(outcome.kind).toBe("changed");
      const read = await ctx.store.getTimer(account.id, "production", timer.id);
      expect(read).toMatchObject({
        status: "published",
        published_at: T0 + 5,
        name: "Launch",
        data: { ...timer.data, clock: { paused_at: null } },
      });
    });

    it("records the creation's activity in the create transaction and pages newest first", async () => {
      const account = await newAccount(ctx.store);
      const row = newTimer(account);
      const timer = await createTimer(
        ctx.store,
        createInput(row, {
          activity: {
            id: randomUUID(),
            timer_id: row.id,
            account_id: account.id,
            environment: "production",
            action: "created",
            revision: 1,
            ...actor,
            changes: {},
            created_at: T0,
          },
        }),
      );
      let current = timer;
      for (let i = 0; i < 4; i++) {
        const o = await ctx.store.changeTimer(rename(current, `N${i}`, { now: T0 + 1000 }));
        if (o.kind === "changed") current = o.timer;
      }
      const seen: string[] = [];
      let before: number | undefined;
      for (;;) {
        const page = await ctx.store.listActivity({
          account_id: account.id,
          environment: "production",
          timer_id: timer.id,
          before_revision: before,
          limit: 2,
        });
        seen.push(...page.map((a) => a.action));
        if (page.length < 2) break;
        before = page[page.length - 1]!.revision;
      }
      // Same millisecond for all four changes: the revision still orders them.
      expect(seen).toEqual(["updated", "updated", "updated", "updated", "created"]);
      expect(
        await ctx.store.listActivity({
          account_id: account.id,
          environment: "sandbox",
          timer_id: timer.id,
          limit: 10,
        }),
      ).toEqual([]);
    });
  });
}
