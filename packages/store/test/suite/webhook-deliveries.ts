import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type {
  Account,
  ClaimedDelivery,
  NewWebhookEvent,
  Store,
  TimerRecord,
  WebhookAttempt,
  WebhookEventType,
} from "../../src/contract";
import {
  CYCLE,
  createInput,
  createTimer,
  newAccount,
  newTimer,
  type SuiteContext,
  T0,
} from "./_fixtures";
import { createDestination, newRule } from "./webhooks";

const actor = { key_id: null, key_prefix: null, request_id: null };

/** An event whose payload shows which row it was built from. */
function event(type: WebhookEventType, occurred_at = T0): NewWebhookEvent {
  return {
    id: randomUUID(),
    type,
    occurred_at,
    payload: (timer: TimerRecord) => ({ type, name: timer.name, revision: timer.revision }),
  };
}

function attempt(n: number, over: Partial<WebhookAttempt> = {}): WebhookAttempt {
  return {
    attempt: n,
    trigger: "scheduled",
    started_at: T0,
    duration_ms: 12.5,
    response_status: 500,
    response_body: "oops",
    error: null,
    ...over,
  };
}

function deliveries(store: Store, account: Account, status?: "pending" | "succeeded" | "failed") {
  return store.listWebhookDeliveries({
    account_id: account.id,
    environment: "production",
    status,
    limit: 100,
  });
}

async function rename(store: Store, timer: TimerRecord, events: NewWebhookEvent[]) {
  return store.changeTimer({
    account_id: timer.account_id,
    environment: timer.environment,
    id: timer.id,
    expected_revision: timer.revision,
    actor,
    activity_id: randomUUID(),
    now: T0 + 1000,
    change: (current) => ({
      action: "updated",
      changes: { name: { before: current.name, after: "Renamed" } },
      name: "Renamed",
      events,
    }),
  });
}

/** A timer in an account with one destination wanting `timer.created`, and one pending delivery. */
async function withPending(store: Store, count = 1) {
  const account = await newAccount(store);
  const destination = await createDestination(store, account, { events: ["timer.created"] });
  for (let i = 0; i < count; i++) {
    await store.createTimer(
      createInput(newTimer(account), { events: [event("timer.created")], now: T0 }),
    );
  }
  return { account, destination };
}

/** Claims everything due for `account` (other tests' deliveries may share the store). */
async function claimOwn(store: Store, account: Account, now: number, worker_id = "w1") {
  const claimed = await store.claimDueDeliveries({ now, lease_ms: 30_000, limit: 1000, worker_id });
  return claimed.filter((c) => c.account_id === account.id);
}

/** The outbox, the workers' claim and record, replay and the time-rule schedule. */
export function webhookDeliveryTests(ctx: SuiteContext): void {
  describe("webhook outbox", () => {
    it("outboxStats counts pending deliveries of every account and names the earliest due", async () => {
      // Relative to what earlier tests left pending in a shared database.
      const before = await ctx.store.outboxStats();
      const { account } = await withPending(ctx.store, 2);
      const during = await ctx.store.outboxStats();
      expect(during.pending - before.pending).toBe(2);
      expect(during.oldest_due_at).not.toBeNull();
      expect(during.oldest_due_at!).toBeLessThanOrEqual(T0);
      const [first] = await claimOwn(ctx.store, account, T0 + 10);
      const recorded = await ctx.store.recordAttempt({
        delivery_id: first!.id,
        worker_id: "w1",
        now: T0 + 20,
        attempt: attempt(1, { response_status: 200, response_body: "" }),
        outcome: "succeeded",
      });
      expect(recorded).toBe(true);
      expect((await ctx.store.outboxStats()).pending - before.pending).toBe(1);
    });

    it("checkReady resolves on a store whose schema is current", async () => {
      await expect(ctx.store.checkReady()).resolves.toBeUndefined();
    });

    it("a create records its events for destinations subscribed to them, with the row as written", async () => {
      const account = await newAccount(ctx.store);
      const stranger = await newAccount(ctx.store);
      const wants = await createDestination(ctx.store, account, { events: ["timer.created"] });
      await createDestination(ctx.store, account, { events: ["timer.updated"] });
      await createDestination(ctx.store, account, { events: ["timer.created"], enabled: false });
      await createDestination(ctx.store, account, {
        events: ["timer.created"],
        environment: "sandbox",
      });
      await createDestination(ctx.store, stranger, { events: ["timer.created"] });
      const created = event("timer.created");
      const timer = await createTimer(
        ctx.store,
        createInput(newTimer(account), { events: [created], now: T0 + 3 }),
      );
      const list = await deliveries(ctx.store, account);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        destination_id: wants.id,
        rule_id: null,
        status: "pending",
        attempts: [],
        next_attempt_at: T0 + 3,
        replay_of: null,
        event: { id: created.id, type: "timer.created", timer_id: timer.id, occurred_at: T0 },
      });
      expect(JSON.parse(list[0]!.event.payload)).toEqual({
        type: "timer.created",
        name: "Launch",
        revision: 1,
      });
      expect(await deliveries(ctx.store, stranger)).toEqual([]);
    });

    it("a change records one delivery per destination, through rules or subscriptions", async () => {
      const account = await newAccount(ctx.store);
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      const other = await createTimer(ctx.store, createInput(newTimer(account)));
      const byRule = await createDestination(ctx.store, account);
      const both = await createDestination(ctx.store, account, { events: ["timer.updated"] });
      const otherType = await createDestination(ctx.store, account);
      const otherTimer = await createDestination(ctx.store, account);
      const add = (t: TimerRecord, d: string, events: WebhookEventType[]) =>
        ctx.store.createWebhookRule({
          rule: newRule(t, d, events, { created_at: T0 + 1 }),
          max_rules_per_timer: 10,
        });
      const rule = newRule(timer, byRule.id, ["timer.updated", "timer.deleted"]);
      await ctx.store.createWebhookRule({ rule, max_rules_per_timer: 10 });
      await add(timer, byRule.id, ["timer.updated"]); // a newer second rule: still one delivery
      await add(timer, both.id, ["timer.updated"]);
      await add(timer, otherType.id, ["timer.published"]);
      await add(other, otherTimer.id, ["timer.updated"]);
      const outcome = await rename(ctx.store, timer, [event("timer.updated", T0 + 1000)]);
      expect(outcome.kind).toBe("changed");
      const list = await deliveries(ctx.store, account);
      expect(list.map((d) => d.destination_id).sort()).toEqual([byRule.id, both.id].sort());
      expect(list.find((d) => d.destination_id === byRule.id)!.rule_id).toBe(rule.id);
      expect(new Set(list.map((d) => d.event.id)).size).toBe(1);
      expect(JSON.parse(list[0]!.event.payload)).toEqual({
        type: "timer.updated",
        name: "Renamed",
        revision: 2,
      });
    });

    it("a refused, stale, rolled-back, replayed or over-quota operation records no event", async () => {
      const account = await newAccount(ctx.store);
      await createDestination(ctx.store, account, { events: ["timer.created", "timer.updated"] });
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      await expect(
        ctx.store.changeTimer({
          account_id: account.id,
          environment: "production",
          id: timer.id,
          expected_revision: 1,
          actor,
          activity_id: randomUUID(),
          now: T0,
          change: () => {
            throw new Error("refused");
          },
        }),
      ).rejects.toThrow("refused");
      // A payload that throws rolls the whole change back.
      const broken: NewWebhookEvent = {
        ...event("timer.updated"),
        payload: () => {
          throw new Error("no payload");
        },
      };
      await expect(rename(ctx.store, timer, [broken])).rejects.toThrow("no payload");
      expect((await ctx.store.getTimer(account.id, "production", timer.id))!.revision).toBe(1);
      await rename(ctx.store, timer, []);
      expect((await rename(ctx.store, timer, [event("timer.updated")])).kind).toBe(
        "revision_conflict",
      );
      const idempotency = { key: randomUUID(), fingerprint: "fp", expires_at: T0 + 1e9 };
      const row = newTimer(account);
      await ctx.store.createTimer(createInput(row, { idempotency }));
      const replay = await ctx.store.createTimer(
        createInput(newTimer(account), { idempotency, events: [event("timer.created")] }),
      );
      expect(replay.kind).toBe("replayed");
      const used = (await ctx.store.getUsage(account.id, "production", CYCLE)).new_timers;
      const refused = await ctx.store.createTimer(
        createInput(newTimer(account), {
          allowance: { cycle_id: CYCLE, limit: used },
          events: [event("timer.created")],
        }),
      );
      expect(refused.kind).toBe("quota_exhausted");
      expect(await deliveries(ctx.store, account)).toEqual([]);
    });
  });

  describe("webhook delivery claims", () => {
    it("concurrent claims never hand out one delivery twice; a lease holds until it expires", async () => {
      const { account, destination } = await withPending(ctx.store, 12);
      const claims = await Promise.all(
        ["a", "b", "c", "d"].map((worker_id) =>
          ctx.store.claimDueDeliveries({ now: T0, lease_ms: 30_000, limit: 5, worker_id }),
        ),
      );
      const ids = claims
        .flat()
        .filter((c) => c.account_id === account.id)
        .map((c) => c.id);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
      expect(await claimOwn(ctx.store, account, T0 + 29_999)).toEqual([]);
      const again = await claimOwn(ctx.store, account, T0 + 30_000, "e");
      expect(again).toHaveLength(12);
      const one = again[0]!;
      expect(one).toMatchObject({
        attempt: 1,
        trigger: "scheduled",
        environment: "production",
        lease_until: T0 + 60_000,
        destination: {
          id: destination.id,
          url: destination.url,
          enabled: true,
          deleted: false,
          secrets: [destination.secret],
        },
        event: { type: "timer.created" },
      });
      expect(JSON.parse(one.event.payload)).toMatchObject({ type: "timer.created", revision: 1 });
    });

    it("holds a suspended account's deliveries, pending, and hands them out once it is active", async () => {
      const { account } = await withPending(ctx.store, 2);
      await ctx.store.setAccountStatus(account.id, "suspended");
      expect(await claimOwn(ctx.store, account, T0 + 60_000)).toEqual([]);
      expect((await deliveries(ctx.store, account, "pending")).length).toBe(2);
      await ctx.store.setAccountStatus(account.id, "active");
      expect(await claimOwn(ctx.store, account, T0 + 60_000)).toHaveLength(2);
    });

    it("purges settled deliveries past retention with their attempts; pending ones stay", async () => {
      const account = await newAccount(ctx.store);
      // One event, two deliveries: the event outlives the first one's purge.
      await createDestination(ctx.store, account, { events: ["timer.created"] });
      await createDestination(ctx.store, account, { events: ["timer.created"] });
      await ctx.store.createTimer(
        createInput(newTimer(account), { events: [event("timer.created")], now: T0 }),
      );
      const [a, b] = await claimOwn(ctx.store, account, T0);
      const settle = (c: ClaimedDelivery, outcome: "succeeded" | "failed", now: number) =>
        ctx.store.recordAttempt({
          delivery_id: c.id,
          worker_id: "w1",
          attempt: attempt(c.attempt, { response_status: outcome === "succeeded" ? 200 : 500 }),
          outcome,
          now,
        });
      expect(await settle(a!, "succeeded", T0 + 1_000)).toBe(true);
      const purge = (before: number) =>
        ctx.store.purge({
          now: before,
          request_log_before: 0,
          rate_windows_before: 0,
          webhook_deliveries_before: before,
        });
      await purge(T0 + 1_000); // settled exactly at the cutoff: kept
      expect(await ctx.store.getWebhookDelivery(account.id, "production", a!.id)).not.toBeNull();
      await purge(T0 + 1_001);
      expect(await ctx.store.getWebhookDelivery(account.id, "production", a!.id)).toBeNull();
      // The other delivery of the same event is pending: kept, with its event and payload.
      const pending = await ctx.store.getWebhookDelivery(account.id, "production", b!.id);
      expect(pending).toMatchObject({ status: "pending", event: { id: a!.event.id } });
      expect(pending!.event.payload).toBe(a!.event.payload);
      expect(await settle(b!, "failed", T0 + 2_000)).toBe(true);
      await purge(T0 + 3_000);
      expect(await deliveries(ctx.store, account)).toEqual([]);
    });

    it("records attempts only under the lease: retry, takeover, success", async () => {
      const { account } = await withPending(ctx.store);
      const [first] = await claimOwn(ctx.store, account, T0, "w1");
      const record = (c: ClaimedDelivery, worker_id: string, over: object = {}) =>
        ctx.store.recordAttempt({
          delivery_id: c.id,
          worker_id,
          attempt: attempt(c.attempt),
          outcome: "retry",
          next_attempt_at: T0 + 5_000,
          now: T0 + 100,
          ...over,
        });
      expect(await record(first!, "someone-else")).toBe(false);
      expect(await record(first!, "w1")).toBe(true);
      expect(await record(first!, "w1")).toBe(false); // the same attempt twice
      const pending = await ctx.store.getWebhookDelivery(account.id, "production", first!.id);
      expect(pending).toMatchObject({ status: "pending", next_attempt_at: T0 + 5_000 });
      expect(pending!.attempts).toEqual([attempt(1)]);
      expect(await claimOwn(ctx.store, account, T0 + 4_999)).toEqual([]);
      // w2 claims attempt 2; its lease expires and w3 takes over: w2 may no longer record.
      const [second] = await claimOwn(ctx.store, account, T0 + 5_000, "w2");
      expect(second!.attempt).toBe(2);
      const [third] = await claimOwn(ctx.store, account, T0 + 35_000, "w3");
      expect(third!.attempt).toBe(2);
      expect(await record(second!, "w2")).toBe(false);
      expect(
        await record(third!, "w3", {
          outcome: "succeeded",
          attempt: attempt(2, { response_status: 204, response_body: "" }),
        }),
      ).toBe(true);
      const done = await ctx.store.getWebhookDelivery(account.id, "production", first!.id);
      expect(done).toMatchObject({ status: "succeeded", next_attempt_at: null });
      expect(done!.attempts.map((a) => a.response_status)).toEqual([500, 204]);
      expect(await claimOwn(ctx.store, account, T0 + 1e9)).toEqual([]);
      expect(await ctx.store.getWebhookDelivery(account.id, "sandbox", first!.id)).toBe(null);
    });

    it("a final failure stops; 410 disables the destination; lists filter by status and page", async () => {
      const { account, destination } = await withPending(ctx.store, 3);
      const claimed = await claimOwn(ctx.store, account, T0);
      await ctx.store.recordAttempt({
        delivery_id: claimed[0]!.id,
        worker_id: "w1",
        attempt: attempt(1, { response_status: 410 }),
        outcome: "failed",
        disable_destination: true,
        now: T0 + 1,
      });
      await ctx.store.recordAttempt({
        delivery_id: claimed[1]!.id,
        worker_id: "w1",
        attempt: attempt(1, { response_status: 200 }),
        outcome: "succeeded",
        now: T0 + 1,
      });
      expect(
        await ctx.store.getWebhookDestination(account.id, "production", destination.id),
      ).toMatchObject({ enabled: false, disabled_reason: "gone" });
      expect((await deliveries(ctx.store, account, "failed")).map((d) => d.id)).toEqual([
        claimed[0]!.id,
      ]);
      expect((await deliveries(ctx.store, account, "succeeded")).map((d) => d.id)).toEqual([
        claimed[1]!.id,
      ]);
      expect((await deliveries(ctx.store, account, "pending")).map((d) => d.id)).toEqual([
        claimed[2]!.id,
      ]);
      const all = await deliveries(ctx.store, account);
      const seen: string[] = [];
      let after: { value: number; id: string } | undefined;
      for (;;) {
        const page = await ctx.store.listWebhookDeliveries({
          account_id: account.id,
          environment: "production",
          after,
          limit: 2,
        });
        seen.push(...page.map((d) => d.id));
        if (page.length < 2) break;
        after = { value: page[1]!.created_at, id: page[1]!.id };
      }
      expect(seen).toEqual(all.map((d) => d.id));
      expect(
        await ctx.store.listWebhookDeliveries({
          account_id: account.id,
          environment: "sandbox",
          limit: 10,
        }),
      ).toEqual([]);
    });

    it("claims sign with both secrets until the previous one expires", async () => {
      const { account, destination } = await withPending(ctx.store);
      await ctx.store.rotateWebhookSecret({
        account_id: account.id,
        environment: "production",
        id: destination.id,
        secret: "whsec_rotated",
        previous_expires_at: T0 + 1000,
        now: T0,
      });
      const [during] = await claimOwn(ctx.store, account, T0);
      expect(during!.destination.secrets).toEqual(["whsec_rotated", destination.secret]);
      const [after] = await claimOwn(ctx.store, account, T0 + 40_000);
      expect(after!.destination.secrets).toEqual(["whsec_rotated"]);
    });
  });

  describe("webhook replay", () => {
    it("creates a new pending delivery of the same event, first attempt manual", async () => {
      const { account, destination } = await withPending(ctx.store);
      const [claimed] = await claimOwn(ctx.store, account, T0);
      await ctx.store.recordAttempt({
        delivery_id: claimed!.id,
        worker_id: "w1",
        attempt: attempt(1),
        outcome: "failed",
        now: T0 + 1,
      });
      const base = { account_id: account.id, environment: "production" as const };
      const outcome = await ctx.store.replayWebhookDelivery({
        ...base,
        id: claimed!.id,
        new_id: randomUUID(),
        now: T0 + 50,
      });
      expect(outcome.kind).toBe("replayed");
      if (outcome.kind !== "replayed") return;
      expect(outcome.delivery).toMatchObject({
        status: "pending",
        replay_of: claimed!.id,
        destination_id: destination.id,
        attempts: [],
        next_attempt_at: T0 + 50,
        event: { id: claimed!.event.id, payload: claimed!.event.payload },
      });
      const [manual] = await claimOwn(ctx.store, account, T0 + 50);
      expect(manual).toMatchObject({ id: outcome.delivery.id, attempt: 1, trigger: "manual" });
      expect(
        await ctx.store.replayWebhookDelivery({
          ...base,
          environment: "sandbox",
          id: claimed!.id,
          new_id: randomUUID(),
          now: T0,
        }),
      ).toEqual({ kind: "not_found" });
      await ctx.store.updateWebhookDestination({
        ...base,
        id: destination.id,
        patch: { enabled: false },
        now: T0,
      });
      expect(
        await ctx.store.replayWebhookDelivery({
          ...base,
          id: claimed!.id,
          new_id: randomUUID(),
          now: T0,
        }),
      ).toEqual({ kind: "destination_unavailable", reason: "disabled" });
      await ctx.store.deleteWebhookDestination({ ...base, id: destination.id, now: T0 });
      expect(
        await ctx.store.replayWebhookDelivery({
          ...base,
          id: claimed!.id,
          new_id: randomUUID(),
          now: T0,
        }),
      ).toEqual({ kind: "destination_unavailable", reason: "deleted" });
      // A claim of a delivery whose destination was deleted says so, for the worker to fail it.
      const [orphan] = await claimOwn(ctx.store, account, T0 + 100_000);
      expect(orphan!.destination).toMatchObject({ deleted: true, enabled: false });
    });
  });

  describe("time-based rule schedule", () => {
    it("a new rule is due at once; an advance fires once and commits with its deliveries", async () => {
      const account = await newAccount(ctx.store);
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      const d = await createDestination(ctx.store, account);
      const rule = newRule(timer, d.id, ["timer.ended"], { created_at: T0 + 7 });
      await ctx.store.createWebhookRule({ rule, max_rules_per_timer: 10 });
      const changeOnly = newRule(timer, d.id, ["timer.updated"]);
      await ctx.store.createWebhookRule({ rule: changeOnly, max_rules_per_timer: 10 });
      const due = (await ctx.store.listDueTimeRules({ now: T0, limit: 1000 })).filter(
        (r) => r.rule.account_id === account.id,
      );
      expect(due).toEqual([{ rule, timer, fired_through: T0 + 7, next_fire_at: 0 }]);
      const advance = (over: object = {}) =>
        ctx.store.advanceTimeRule({
          account_id: account.id,
          environment: "production",
          rule_id: rule.id,
          expected_fired_through: T0 + 7,
          timer_revision: 1,
          fired_through: T0 + 500,
          next_fire_at: null,
          events: [event("timer.ended", T0 + 500)],
          now: T0 + 600,
          ...over,
        });
      expect(await advance({ timer_revision: 2 })).toBe(false);
      const raced = await Promise.all([advance(), advance(), advance()]);
      expect(raced.filter(Boolean)).toHaveLength(1);
      const list = await deliveries(ctx.store, account);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({
        rule_id: rule.id,
        destination_id: d.id,
        next_attempt_at: T0 + 600,
        event: { type: "timer.ended", occurred_at: T0 + 500 },
      });
      const mine = async (now: number) =>
        (await ctx.store.listDueTimeRules({ now, limit: 1000 })).filter(
          (r) => r.rule.account_id === account.id,
        );
      expect(await mine(T0 + 1e9)).toEqual([]);
      // A change to the timer asks for a recomputation, and makes the old computation stale.
      await rename(ctx.store, timer, []);
      const recompute = await mine(T0);
      expect(recompute).toHaveLength(1);
      expect(recompute[0]).toMatchObject({ fired_through: T0 + 500, next_fire_at: 0 });
      expect(recompute[0]!.timer!.revision).toBe(2);
      expect(await advance({ expected_fired_through: T0 + 500 })).toBe(false);
      expect(
        await advance({
          expected_fired_through: T0 + 500,
          timer_revision: 2,
          fired_through: T0 + 500,
          next_fire_at: T0 + 9_000,
          events: [],
        }),
      ).toBe(true);
      expect(await mine(T0 + 8_999)).toEqual([]);
      expect(await mine(T0 + 9_000)).toHaveLength(1);
    });
  });
}
