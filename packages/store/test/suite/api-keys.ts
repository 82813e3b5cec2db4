import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Account, Environment, Store } from "../../src/contract";
import { expectStoreError, newAccount, type SuiteContext, T0, unique } from "./_fixtures";

/** Inserts a key with unique id, prefix and hash. */
function createKey(
  store: Store,
  account: Account,
  options: { environment?: Environment; max?: number; now?: number; prefix?: string } = {},
) {
  return store.createApiKey({
    id: randomUUID(),
    account_id: account.id,
    environment: options.environment ?? "production",
    prefix: options.prefix ?? unique("svc_live"),
    hash: unique("hash"),
    scopes: ["*"],
    max_active_keys: options.max ?? 10,
    now: options.now ?? T0,
  });
}

/** API keys: the active-key limit, hash lookup, revocation and listing. */
export function apiKeyTests(ctx: SuiteContext): void {
  describe("api keys", () => {
    it("creates a key and finds it, with its account, by hash", async () => {
      const account = await newAccount(ctx.store);
      const key = await ctx.store.createApiKey({
        id: randomUUID(),
        account_id: account.id,
        environment: "sandbox",
        prefix: "svc_test_8f3k2abc",
        hash: unique("hash"),
        scopes: ["timers:read", "usage:read"],
        max_active_keys: 1,
        now: T0,
      });
      expect(key).toMatchObject({
        account_id: account.id,
        environment: "sandbox",
        scopes: ["timers:read", "usage:read"],
        created_at: T0,
        revoked_at: null,
        name: null,
      });
      expect(await ctx.store.findApiKeyByHash(key.hash)).toEqual({ key, account });
      expect(await ctx.store.findApiKeyByHash(unique("hash"))).toBeNull();
    });

    it("returns the account's current status with the key", async () => {
      const account = await newAccount(ctx.store);
      const key = await createKey(ctx.store, account);
      await ctx.store.setAccountStatus(account.id, "suspended");
      expect((await ctx.store.findApiKeyByHash(key.hash))?.account.status).toBe("suspended");
    });

    it("respects max_active_keys per environment", async () => {
      const account = await newAccount(ctx.store);
      for (let i = 0; i < 3; i++) await createKey(ctx.store, account, { max: 3 });
      await expectStoreError(createKey(ctx.store, account, { max: 3 }), "limit_reached");
      // The other environment has its own count.
      await createKey(ctx.store, account, { environment: "sandbox", max: 1 });
      await expectStoreError(
        createKey(ctx.store, account, { environment: "sandbox", max: 1 }),
        "limit_reached",
      );
      expect(await ctx.store.listApiKeys(account.id, "production")).toHaveLength(3);
    });

    it("does not count revoked keys against the limit", async () => {
      const account = await newAccount(ctx.store);
      const first = await createKey(ctx.store, account, { max: 1 });
      await expectStoreError(createKey(ctx.store, account, { max: 1 }), "limit_reached");
      await ctx.store.revokeApiKey({ id_or_prefix: first.id, now: T0 + 1 });
      await createKey(ctx.store, account, { max: 1 });
    });

    it("lets exactly max_active_keys of 10 concurrent creates succeed", async () => {
      const account = await newAccount(ctx.store);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () => createKey(ctx.store, account, { max: 3 })),
      );
      const fulfilled = results.filter((r) => r.status === "fulfilled");
      const rejected = results.filter((r) => r.status === "rejected");
      expect(fulfilled).toHaveLength(3);
      expect(rejected).toHaveLength(7);
      for (const r of rejected)
        expect((r as PromiseRejectedResult).reason.code).toBe("limit_reached");
      expect(await ctx.store.listApiKeys(account.id)).toHaveLength(3);
    });

    it("revokes by id: the hash no longer authenticates", async () => {
      const account = await newAccount(ctx.store);
      const key = await createKey(ctx.store, account);
      const revoked = await ctx.store.revokeApiKey({ id_or_prefix: key.id, now: T0 + 5 });
      expect(revoked).toEqual({ ...key, revoked_at: T0 + 5 });
      expect(await ctx.store.findApiKeyByHash(key.hash)).toBeNull();
      // Already revoked: no live key matches any more.
      expect(await ctx.store.revokeApiKey({ id_or_prefix: key.id, now: T0 + 6 })).toBeNull();
    });

    it("revokes by prefix", async () => {
      const account = await newAccount(ctx.store);
      const key = await createKey(ctx.store, account);
      const other = await createKey(ctx.store, account);
      const revoked = await ctx.store.revokeApiKey({
        id_or_prefix: key.prefix,
        account_id: account.id,
        now: T0 + 5,
      });
      expect(revoked?.id).toBe(key.id);
      expect(await ctx.store.findApiKeyByHash(key.hash)).toBeNull();
      expect(await ctx.store.findApiKeyByHash(other.hash)).not.toBeNull();
    });

    it("refuses to guess when a prefix names several live keys", async () => {
      const account = await newAccount(ctx.store);
      const prefix = unique("svc_live");
      await createKey(ctx.store, account, { prefix });
      await createKey(ctx.store, account, { prefix });
      await expectStoreError(ctx.store.revokeApiKey({ id_or_prefix: prefix, now: T0 }), "conflict");
    });

    it("revokes only within the given account", async () => {
      const owner = await newAccount(ctx.store);
      const stranger = await newAccount(ctx.store);
      const key = await createKey(ctx.store, owner);
      for (const needle of [key.id, key.prefix]) {
        expect(
          await ctx.store.revokeApiKey({ id_or_prefix: needle, account_id: stranger.id, now: T0 }),
        ).toBeNull();
      }
      expect(await ctx.store.findApiKeyByHash(key.hash)).not.toBeNull();
      expect(await ctx.store.revokeApiKey({ id_or_prefix: unique("nope"), now: T0 })).toBeNull();
    });

    it("lists an account's keys newest first, revoked ones included", async () => {
      const account = await newAccount(ctx.store);
      const stranger = await newAccount(ctx.store);
      await createKey(ctx.store, stranger);
      const a = await createKey(ctx.store, account, { now: T0 + 1 });
      const b = await createKey(ctx.store, account, { now: T0 + 3, environment: "sandbox" });
      const c = await createKey(ctx.store, account, { now: T0 + 2 });
      const revokedA = await ctx.store.revokeApiKey({ id_or_prefix: a.id, now: T0 + 4 });
      expect(await ctx.store.listApiKeys(account.id)).toEqual([b, c, revokedA]);
      expect(await ctx.store.listApiKeys(account.id, "production")).toEqual([c, revokedA]);
      expect(await ctx.store.listApiKeys(account.id, "sandbox")).toEqual([b]);
    });

    it("keeps a key's name through listing, lookup, revocation and rolling", async () => {
      const account = await newAccount(ctx.store);
      const key = await ctx.store.createApiKey({
        id: randomUUID(),
        account_id: account.id,
        environment: "production",
        prefix: unique("svc_live"),
        hash: unique("hash"),
        scopes: ["*"],
        name: "Newsletter integration",
        max_active_keys: 10,
        now: T0,
      });
      expect(key.name).toBe("Newsletter integration");
      expect((await ctx.store.findApiKeyByHash(key.hash))?.key.name).toBe("Newsletter integration");
      expect((await ctx.store.listApiKeys(account.id))[0]?.name).toBe("Newsletter integration");
      const next = { id: randomUUID(), prefix: unique("svc_live"), hash: unique("hash") };
      const rolled = await ctx.store.rollApiKey({
        id_or_prefix: key.id,
        replacement: () => next,
        expires_at: T0 + 1000,
        now: T0,
      });
      expect(rolled?.replacement.name).toBe("Newsletter integration");
      const revoked = await ctx.store.revokeApiKey({ id_or_prefix: next.id, now: T0 + 1 });
      expect(revoked?.name).toBe("Newsletter integration");
    });

    describe("rolling", () => {
      const replacement = (prefix = unique("svc_live")) => {
        const made = { id: randomUUID(), prefix, hash: unique("hash") };
        return Object.assign(() => made, made);
      };

      it("issues the replacement and schedules the old key's end, even at the key limit", async () => {
        const account = await newAccount(ctx.store);
        const old = await createKey(ctx.store, account, { environment: "sandbox", max: 1 });
        const next = replacement();
        const rolled = await ctx.store.rollApiKey({
          id_or_prefix: old.prefix,
          replacement: next,
          expires_at: T0 + 86_400_000,
          now: T0 + 1000,
        });
        expect(rolled?.rolled).toMatchObject({
          id: old.id,
          expires_at: T0 + 86_400_000,
          revoked_at: null,
        });
        expect(rolled?.replacement).toMatchObject({
          ...next,
          account_id: account.id,
          environment: "sandbox",
          scopes: old.scopes,
          created_at: T0 + 1000,
          revoked_at: null,
          expires_at: null,
        });
        // Both authenticate during the rotation; the old one reports its end.
        expect((await ctx.store.findApiKeyByHash(old.hash))?.key.expires_at).toBe(T0 + 86_400_000);
        expect((await ctx.store.findApiKeyByHash(next.hash))?.key.id).toBe(next.id);
        // The rolled key holds no slot, the replacement does: the limit of 1 is reached.
        await expectStoreError(
          createKey(ctx.store, account, { environment: "sandbox", max: 1 }),
          "limit_reached",
        );
      });

      it("refuses a key already rolled, and ignores keys past their end", async () => {
        const account = await newAccount(ctx.store);
        const old = await createKey(ctx.store, account);
        const input = { id_or_prefix: old.id, expires_at: T0 + 5000, now: T0 };
        await ctx.store.rollApiKey({ ...input, replacement: replacement() });
        await expectStoreError(
          ctx.store.rollApiKey({ ...input, replacement: replacement() }),
          "conflict",
        );
        // Past its end the key is not live: neither rolled, nor revoked again.
        expect(
          await ctx.store.rollApiKey({ ...input, now: T0 + 5000, replacement: replacement() }),
        ).toBeNull();
        expect(await ctx.store.revokeApiKey({ id_or_prefix: old.id, now: T0 + 5001 })).toBeNull();
        // Before its end it can still be revoked at once.
        const other = await createKey(ctx.store, account);
        await ctx.store.rollApiKey({
          id_or_prefix: other.id,
          expires_at: T0 + 60_000,
          now: T0,
          replacement: replacement(),
        });
        expect(
          (await ctx.store.revokeApiKey({ id_or_prefix: other.id, now: T0 + 1 }))?.revoked_at,
        ).toBe(T0 + 1);
        expect(await ctx.store.findApiKeyByHash(other.hash)).toBeNull();
      });

      it("rolls only within the given account, and null for an unknown key", async () => {
        const account = await newAccount(ctx.store);
        const stranger = await newAccount(ctx.store);
        const key = await createKey(ctx.store, account);
        const roll = (account_id: string) =>
          ctx.store.rollApiKey({
            id_or_prefix: key.id,
            account_id,
            expires_at: T0 + 1000,
            now: T0,
            replacement: replacement(),
          });
        expect(await roll(stranger.id)).toBeNull();
        expect((await roll(account.id))?.rolled.id).toBe(key.id);
      });
    });
  });
}
