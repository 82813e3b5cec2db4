import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Account, DashboardUser, Store } from "../../src/contract";
import { expectStoreError, newAccount, type SuiteContext, T0, unique } from "./_fixtures";

const HOUR = 3_600_000;

/** A random token's hash, as the dashboard stores it. */
function hashOf(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

async function newUser(
  store: Store,
  account: Account,
  role: "owner" | "member" = "owner",
): Promise<DashboardUser> {
  return store.createUser({
    id: randomUUID(),
    account_id: account.id,
    email: `${unique("u")}@example.com`.toLowerCase(),
    role,
    now: T0,
  });
}

/** Dashboard users: unique emails, one-time links, sessions and the sign-in limit. */
export function userTests(ctx: SuiteContext): void {
  describe("dashboard users", () => {
    it("creates a user without a password and finds it by id, email and account", async () => {
      const account = await newAccount(ctx.store);
      const user = await newUser(ctx.store, account, "member");
      expect(user).toMatchObject({ account_id: account.id, role: "member", password_hash: null });
      expect(user.created_at).toBe(T0);
      expect(await ctx.store.getUser(user.id)).toEqual(user);
      expect(await ctx.store.findUserByEmail(user.email)).toEqual(user);
      expect(await ctx.store.listUsers(account.id)).toEqual([user]);
      expect(await ctx.store.findUserByEmail("nobody@example.com")).toBeNull();
    });

    it("refuses a duplicate email with conflict and an unknown account with not_found", async () => {
      const account = await newAccount(ctx.store);
      const user = await newUser(ctx.store, account);
      const other = await newAccount(ctx.store);
      await expectStoreError(
        ctx.store.createUser({
          id: randomUUID(),
          account_id: other.id,
          email: user.email,
          role: "owner",
          now: T0,
        }),
        "conflict",
      );
      await expectStoreError(
        ctx.store.createUser({
          id: randomUUID(),
          account_id: randomUUID(),
          email: `${unique("x")}@example.com`,
          role: "owner",
          now: T0,
        }),
        "not_found",
      );
    });

    it("uses a password link exactly once, before it expires", async () => {
      const user = await newUser(ctx.store, await newAccount(ctx.store));
      const token = randomUUID();
      await ctx.store.createPasswordLink({
        token_hash: hashOf(token),
        user_id: user.id,
        expires_at: T0 + HOUR,
        now: T0,
      });
      expect((await ctx.store.findPasswordLink({ token_hash: hashOf(token), now: T0 }))?.id).toBe(
        user.id,
      );
      // Expired: neither found nor usable.
      expect(
        await ctx.store.findPasswordLink({ token_hash: hashOf(token), now: T0 + HOUR }),
      ).toBeNull();
      expect(
        await ctx.store.usePasswordLink({
          token_hash: hashOf(token),
          password_hash: "scrypt$x",
          now: T0 + HOUR,
        }),
      ).toBeNull();
      const used = await ctx.store.usePasswordLink({
        token_hash: hashOf(token),
        password_hash: "scrypt$x",
        now: T0 + 1,
      });
      expect(used).toMatchObject({ id: user.id, password_hash: "scrypt$x", updated_at: T0 + 1 });
      expect(
        await ctx.store.usePasswordLink({
          token_hash: hashOf(token),
          password_hash: "scrypt$y",
          now: T0 + 2,
        }),
      ).toBeNull();
      expect((await ctx.store.getUser(user.id))?.password_hash).toBe("scrypt$x");
    });

    it("lets two racing uses of one link succeed once", async () => {
      const user = await newUser(ctx.store, await newAccount(ctx.store));
      const token = hashOf(randomUUID());
      await ctx.store.createPasswordLink({
        token_hash: token,
        user_id: user.id,
        expires_at: T0 + HOUR,
        now: T0,
      });
      const results = await Promise.all(
        ["a", "b", "c"].map((p) =>
          ctx.store.usePasswordLink({ token_hash: token, password_hash: p, now: T0 + 1 }),
        ),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    });

    it("keeps only the newest link of a user", async () => {
      const user = await newUser(ctx.store, await newAccount(ctx.store));
      const first = hashOf(randomUUID());
      const second = hashOf(randomUUID());
      for (const token_hash of [first, second]) {
        await ctx.store.createPasswordLink({
          token_hash,
          user_id: user.id,
          expires_at: T0 + HOUR,
          now: T0,
        });
      }
      expect(await ctx.store.findPasswordLink({ token_hash: first, now: T0 })).toBeNull();
      expect(await ctx.store.findPasswordLink({ token_hash: second, now: T0 })).not.toBeNull();
    });

    it("finds a session until it expires, and ends one or all of a user's", async () => {
      const user = await newUser(ctx.store, await newAccount(ctx.store));
      const [a, b, c] = [hashOf("a" + randomUUID()), hashOf(randomUUID()), hashOf(randomUUID())];
      for (const id_hash of [a, b, c]) {
        await ctx.store.createSession({
          id_hash,
          user_id: user.id,
          expires_at: T0 + HOUR,
          now: T0,
        });
      }
      const found = await ctx.store.findSession({ id_hash: a, now: T0 + 1 });
      expect(found?.session).toEqual({
        id_hash: a,
        user_id: user.id,
        created_at: T0,
        expires_at: T0 + HOUR,
      });
      expect(found?.user).toEqual(user);
      expect(await ctx.store.findSession({ id_hash: a, now: T0 + HOUR })).toBeNull();
      expect(await ctx.store.deleteSession(a)).toBe(true);
      expect(await ctx.store.deleteSession(a)).toBe(false);
      expect(await ctx.store.findSession({ id_hash: a, now: T0 })).toBeNull();
      expect(await ctx.store.deleteUserSessions(user.id)).toBe(2);
      expect(await ctx.store.findSession({ id_hash: b, now: T0 })).toBeNull();
    });

    it("ends the user's sessions when a password link is used", async () => {
      const user = await newUser(ctx.store, await newAccount(ctx.store));
      const session = hashOf(randomUUID());
      await ctx.store.createSession({
        id_hash: session,
        user_id: user.id,
        expires_at: T0 + HOUR,
        now: T0,
      });
      const token = hashOf(randomUUID());
      await ctx.store.createPasswordLink({
        token_hash: token,
        user_id: user.id,
        expires_at: T0 + HOUR,
        now: T0,
      });
      await ctx.store.usePasswordLink({ token_hash: token, password_hash: "h", now: T0 + 1 });
      expect(await ctx.store.findSession({ id_hash: session, now: T0 + 2 })).toBeNull();
    });

    it("changes roles within the account and never demotes the last owner", async () => {
      const account = await newAccount(ctx.store);
      const owner = await newUser(ctx.store, account, "owner");
      const member = await newUser(ctx.store, account, "member");
      await expectStoreError(
        ctx.store.setUserRole({ id: owner.id, account_id: account.id, role: "member", now: T0 }),
        "conflict",
      );
      expect((await ctx.store.getUser(owner.id))?.role).toBe("owner");
      const promoted = await ctx.store.setUserRole({
        id: member.id,
        account_id: account.id,
        role: "owner",
        now: T0 + 5,
      });
      expect(promoted).toMatchObject({ id: member.id, role: "owner", updated_at: T0 + 5 });
      // Another account's user is not found through this account.
      const other = await newAccount(ctx.store);
      expect(
        await ctx.store.setUserRole({
          id: owner.id,
          account_id: other.id,
          role: "member",
          now: T0,
        }),
      ).toBeNull();
      expect((await ctx.store.getUser(owner.id))?.role).toBe("owner");
      // Two owners demoted at once: one succeeds, the other is the last owner and is refused.
      const results = await Promise.allSettled(
        [owner, member].map((u) =>
          ctx.store.setUserRole({ id: u.id, account_id: account.id, role: "member", now: T0 }),
        ),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const owners = (await ctx.store.listUsers(account.id)).filter((u) => u.role === "owner");
      expect(owners).toHaveLength(1);
    });

    it("removes a user with their sessions and links, never the last owner", async () => {
      const account = await newAccount(ctx.store);
      const owner = await newUser(ctx.store, account, "owner");
      const member = await newUser(ctx.store, account, "member");
      const session = hashOf(randomUUID());
      const token = hashOf(randomUUID());
      await ctx.store.createSession({
        id_hash: session,
        user_id: member.id,
        expires_at: T0 + HOUR,
        now: T0,
      });
      await ctx.store.createPasswordLink({
        token_hash: token,
        user_id: member.id,
        expires_at: T0 + HOUR,
        now: T0,
      });
      await expectStoreError(
        ctx.store.deleteUser({ id: owner.id, account_id: account.id }),
        "conflict",
      );
      const other = await newAccount(ctx.store);
      expect(await ctx.store.deleteUser({ id: member.id, account_id: other.id })).toBe(false);
      expect(await ctx.store.deleteUser({ id: member.id, account_id: account.id })).toBe(true);
      expect(await ctx.store.deleteUser({ id: member.id, account_id: account.id })).toBe(false);
      expect(await ctx.store.getUser(member.id)).toBeNull();
      expect(await ctx.store.findSession({ id_hash: session, now: T0 })).toBeNull();
      expect(await ctx.store.findPasswordLink({ token_hash: token, now: T0 })).toBeNull();
      expect((await ctx.store.listUsers(account.id)).map((u) => u.id)).toEqual([owner.id]);
      // Its email is free again.
      await ctx.store.createUser({
        id: randomUUID(),
        account_id: account.id,
        email: member.email,
        role: "member",
        now: T0,
      });
      // With a second owner, the first may go.
      const second = await newUser(ctx.store, account, "owner");
      expect(await ctx.store.deleteUser({ id: owner.id, account_id: account.id })).toBe(true);
      await expectStoreError(
        ctx.store.deleteUser({ id: second.id, account_id: account.id }),
        "conflict",
      );
    });

    it("purges expired sessions, dead links and, with a cutoff, old sign-in windows", async () => {
      const user = await newUser(ctx.store, await newAccount(ctx.store));
      const other = await newUser(ctx.store, await newAccount(ctx.store));
      const [expired, live] = [hashOf(randomUUID()), hashOf(randomUUID())];
      await ctx.store.createSession({
        id_hash: expired,
        user_id: user.id,
        expires_at: T0 + HOUR,
        now: T0,
      });
      await ctx.store.createSession({
        id_hash: live,
        user_id: user.id,
        expires_at: T0 + 3 * HOUR,
        now: T0,
      });
      const [oldLink, newLink] = [hashOf(randomUUID()), hashOf(randomUUID())];
      await ctx.store.createPasswordLink({
        token_hash: oldLink,
        user_id: user.id,
        expires_at: T0 + HOUR,
        now: T0,
      });
      await ctx.store.createPasswordLink({
        token_hash: newLink,
        user_id: other.id,
        expires_at: T0 + 3 * HOUR,
        now: T0,
      });
      const key = unique("email");
      const window_ms = 15 * 60_000;
      const attempt = () => ctx.store.countSignInAttempt({ key, window_ms, max: 1, now: T0 });
      expect((await attempt()).allowed).toBe(true);
      const purge = (extra: { sign_in_attempts_before?: number } = {}) =>
        ctx.store.purge({
          now: T0 + 2 * HOUR,
          request_log_before: 0,
          rate_windows_before: 0,
          webhook_deliveries_before: 0,
          ...extra,
        });
      await purge();
      // Looked up at T0, when both were alive: only a purged row is missing.
      expect(await ctx.store.findSession({ id_hash: expired, now: T0 })).toBeNull();
      expect(await ctx.store.findSession({ id_hash: live, now: T0 })).not.toBeNull();
      expect(await ctx.store.findPasswordLink({ token_hash: oldLink, now: T0 })).toBeNull();
      expect(await ctx.store.findPasswordLink({ token_hash: newLink, now: T0 })).not.toBeNull();
      // Without the cutoff the sign-in window is kept (the second attempt is over the limit).
      expect((await attempt()).allowed).toBe(false);
      await purge({ sign_in_attempts_before: T0 + window_ms });
      expect((await attempt()).allowed).toBe(true);
    });

    it("counts sign-in attempts per key and window, concurrent ones included", async () => {
      const key = unique("email");
      const window_ms = 15 * 60_000;
      const start = Math.floor(T0 / window_ms) * window_ms;
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          ctx.store.countSignInAttempt({ key, window_ms, max: 5, now: T0 }),
        ),
      );
      expect(answers.filter((a) => a.allowed)).toHaveLength(5);
      expect(answers[0]!.window_ends_at).toBe(start + window_ms);
      // Another key has its own count; the next window starts over.
      expect(
        (await ctx.store.countSignInAttempt({ key: unique("o"), window_ms, max: 5, now: T0 }))
          .allowed,
      ).toBe(true);
      expect(
        (await ctx.store.countSignInAttempt({ key, window_ms, max: 5, now: start + window_ms }))
          .allowed,
      ).toBe(true);
    });
  });
}
