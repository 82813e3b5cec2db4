import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type {
  Account,
  Environment,
  NewWebhookDestination,
  Store,
  WebhookDestination,
  WebhookEventType,
  WebhookRule,
} from "../../src/contract";
import {
  createInput,
  createTimer,
  deleteTimer,
  expectStoreError,
  newAccount,
  newTimer,
  type SuiteContext,
  T0,
} from "./_fixtures";

/** A destination row to insert, with every field overridable. */
export function newDestination(
  account: Account,
  overrides: Partial<NewWebhookDestination> = {},
): NewWebhookDestination {
  return {
    id: randomUUID(),
    account_id: account.id,
    environment: "production",
    url: "https://hooks.example.com/tminus",
    description: null,
    events: [],
    enabled: true,
    secret: `whsec_${randomUUID()}`,
    created_at: T0,
    ...overrides,
  };
}

/** Creates a destination with a generous limit. */
export function createDestination(
  store: Store,
  account: Account,
  overrides: Partial<NewWebhookDestination> = {},
): Promise<WebhookDestination> {
  return store.createWebhookDestination({
    destination: newDestination(account, overrides),
    max_destinations: 100,
  });
}

/** A rule of a timer to a destination. */
export function newRule(
  timer: { id: string; account_id: string; environment: Environment },
  destination_id: string,
  events: WebhookEventType[],
  overrides: Partial<WebhookRule> = {},
): WebhookRule {
  return {
    id: randomUUID(),
    account_id: timer.account_id,
    environment: timer.environment,
    timer_id: timer.id,
    destination_id,
    events,
    offset_seconds: null,
    created_at: T0,
    ...overrides,
  };
}

/** Webhook destinations and rules: CRUD, scoping, limits and keyset paging. */
export function webhookTests(ctx: SuiteContext): void {
  describe("webhook destinations", () => {
    it("creates, reads, lists newest first with keyset paging, and is scoped", async () => {
      const account = await newAccount(ctx.store);
      const stranger = await newAccount(ctx.store);
      const made: WebhookDestination[] = [];
      for (let i = 0; i < 5; i++) {
        // Two share a millisecond: the id breaks the tie.
        made.push(await createDestination(ctx.store, account, { created_at: T0 + Math.min(i, 3) }));
      }
      expect(made[0]).toMatchObject({
        enabled: true,
        disabled_reason: null,
        previous_secret: null,
        previous_secret_expires_at: null,
        updated_at: T0,
      });
      const scope = { account_id: account.id, environment: "production" as const };
      expect(await ctx.store.getWebhookDestination(account.id, "production", made[0]!.id)).toEqual(
        made[0],
      );
      expect(await ctx.store.getWebhookDestination(stranger.id, "production", made[0]!.id)).toBe(
        null,
      );
      expect(await ctx.store.getWebhookDestination(account.id, "sandbox", made[0]!.id)).toBe(null);
      const seen: WebhookDestination[] = [];
      let after: { value: number; id: string } | undefined;
      for (;;) {
        const page = await ctx.store.listWebhookDestinations({ ...scope, after, limit: 2 });
        seen.push(...page);
        if (page.length < 2) break;
        const last = page[page.length - 1]!;
        after = { value: last.created_at, id: last.id };
      }
      const expected = [...made].sort((a, b) =>
        a.created_at !== b.created_at ? b.created_at - a.created_at : a.id < b.id ? 1 : -1,
      );
      expect(seen.map((d) => d.id)).toEqual(expected.map((d) => d.id));
      expect(
        await ctx.store.listWebhookDestinations({ ...scope, environment: "sandbox", limit: 10 }),
      ).toEqual([]);
    });

    it("refuses a create beyond max_destinations, counting live ones only", async () => {
      const account = await newAccount(ctx.store);
      const create = () =>
        ctx.store.createWebhookDestination({
          destination: newDestination(account),
          max_destinations: 2,
        });
      const results = await Promise.allSettled([create(), create(), create(), create()]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
      await expectStoreError(create(), "limit_reached");
      const [first] = await ctx.store.listWebhookDestinations({
        account_id: account.id,
        environment: "production",
        limit: 1,
      });
      await ctx.store.deleteWebhookDestination({
        account_id: account.id,
        environment: "production",
        id: first!.id,
        now: T0,
      });
      await expect(create()).resolves.toMatchObject({ enabled: true });
    });

    it("updates fields; disabling records a reason and enabling clears it", async () => {
      const account = await newAccount(ctx.store);
      const d = await createDestination(ctx.store, account);
      const base = { account_id: account.id, environment: "production" as const, id: d.id };
      const updated = await ctx.store.updateWebhookDestination({
        ...base,
        patch: { url: "https://other.example.com/", description: "ops", events: ["timer.created"] },
        now: T0 + 5,
      });
      expect(updated).toMatchObject({
        url: "https://other.example.com/",
        description: "ops",
        events: ["timer.created"],
        updated_at: T0 + 5,
        secret: d.secret,
      });
      const off = await ctx.store.updateWebhookDestination({
        ...base,
        patch: { enabled: false },
        now: T0 + 6,
      });
      expect(off).toMatchObject({
        enabled: false,
        disabled_reason: "disabled",
        description: "ops",
      });
      const cleared = await ctx.store.updateWebhookDestination({
        ...base,
        patch: { description: null, enabled: true },
        now: T0 + 7,
      });
      expect(cleared).toMatchObject({ enabled: true, disabled_reason: null, description: null });
      expect(
        await ctx.store.updateWebhookDestination({
          ...base,
          environment: "sandbox",
          patch: { enabled: false },
          now: T0,
        }),
      ).toBe(null);
    });

    it("rotates the secret, keeping the previous one until its expiry", async () => {
      const account = await newAccount(ctx.store);
      const d = await createDestination(ctx.store, account);
      const rotated = await ctx.store.rotateWebhookSecret({
        account_id: account.id,
        environment: "production",
        id: d.id,
        secret: "whsec_new",
        previous_expires_at: T0 + 86_400_000,
        now: T0,
      });
      expect(rotated).toMatchObject({
        secret: "whsec_new",
        previous_secret: d.secret,
        previous_secret_expires_at: T0 + 86_400_000,
      });
      const again = await ctx.store.rotateWebhookSecret({
        account_id: account.id,
        environment: "production",
        id: d.id,
        secret: "whsec_newer",
        previous_expires_at: T0 + 90_000_000,
        now: T0 + 1,
      });
      expect(again).toMatchObject({ secret: "whsec_newer", previous_secret: "whsec_new" });
      expect(
        await ctx.store.rotateWebhookSecret({
          account_id: account.id,
          environment: "sandbox",
          id: d.id,
          secret: "x",
          previous_expires_at: 0,
          now: T0,
        }),
      ).toBe(null);
    });

    it("soft-deletes: gone from get and list, its rules deleted with it", async () => {
      const account = await newAccount(ctx.store);
      const d = await createDestination(ctx.store, account);
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      await ctx.store.createWebhookRule({
        rule: newRule(timer, d.id, ["timer.updated"]),
        max_rules_per_timer: 10,
      });
      const del = { account_id: account.id, environment: "production" as const, id: d.id, now: T0 };
      expect(await ctx.store.deleteWebhookDestination(del)).toBe(true);
      expect(await ctx.store.deleteWebhookDestination(del)).toBe(false);
      expect(await ctx.store.getWebhookDestination(account.id, "production", d.id)).toBe(null);
      expect(
        await ctx.store.listWebhookRules({
          account_id: account.id,
          environment: "production",
          timer_id: timer.id,
          limit: 10,
        }),
      ).toEqual([]);
    });
  });

  describe("webhook rules", () => {
    it("creates only for a live timer and a destination of the same account and environment", async () => {
      const account = await newAccount(ctx.store);
      const stranger = await newAccount(ctx.store);
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      const mine = await createDestination(ctx.store, account);
      const sandbox = await createDestination(ctx.store, account, { environment: "sandbox" });
      const theirs = await createDestination(ctx.store, stranger);
      const create = (rule: WebhookRule) =>
        ctx.store.createWebhookRule({ rule, max_rules_per_timer: 10 });
      for (const other of [sandbox, theirs]) {
        expect(await create(newRule(timer, other.id, ["timer.ended"]))).toEqual({
          kind: "destination_not_found",
        });
      }
      expect(
        await create(newRule({ ...timer, id: randomUUID() }, mine.id, ["timer.ended"])),
      ).toEqual({ kind: "timer_not_found" });
      const rule = newRule(timer, mine.id, ["timer.ended", "timer.threshold"], {
        offset_seconds: 60,
      });
      expect(await create(rule)).toEqual({ kind: "created", rule });
      await deleteTimer(ctx.store, account.id, "production", timer.id);
      expect(await create(newRule(timer, mine.id, ["timer.ended"]))).toEqual({
        kind: "timer_not_found",
      });
    });

    it("lists one timer's rules newest first, pages, limits and deletes", async () => {
      const account = await newAccount(ctx.store);
      const timer = await createTimer(ctx.store, createInput(newTimer(account)));
      const other = await createTimer(ctx.store, createInput(newTimer(account)));
      const d = await createDestination(ctx.store, account);
      const rules: WebhookRule[] = [];
      for (let i = 0; i < 3; i++) {
        const rule = newRule(timer, d.id, ["timer.updated"], { created_at: T0 + i });
        await ctx.store.createWebhookRule({ rule, max_rules_per_timer: 3 });
        rules.push(rule);
      }
      await expectStoreError(
        ctx.store.createWebhookRule({
          rule: newRule(timer, d.id, ["timer.updated"]),
          max_rules_per_timer: 3,
        }),
        "limit_reached",
      );
      await ctx.store.createWebhookRule({
        rule: newRule(other, d.id, ["timer.updated"]),
        max_rules_per_timer: 3,
      });
      const scope = { account_id: account.id, environment: "production" as const };
      const firstPage = await ctx.store.listWebhookRules({
        ...scope,
        timer_id: timer.id,
        limit: 2,
      });
      expect(firstPage).toEqual([rules[2], rules[1]]);
      const last = firstPage[1]!;
      expect(
        await ctx.store.listWebhookRules({
          ...scope,
          timer_id: timer.id,
          after: { value: last.created_at, id: last.id },
          limit: 2,
        }),
      ).toEqual([rules[0]]);
      const del = { ...scope, timer_id: timer.id, id: rules[0]!.id };
      expect(await ctx.store.deleteWebhookRule({ ...del, timer_id: other.id })).toBe(false);
      expect(await ctx.store.deleteWebhookRule(del)).toBe(true);
      expect(await ctx.store.deleteWebhookRule(del)).toBe(false);
      expect(
        await ctx.store.listWebhookRules({ ...scope, timer_id: timer.id, limit: 10 }),
      ).toHaveLength(2);
    });
  });
}
