import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { expectStoreError, newAccount, type SuiteContext, T0, unique } from "./_fixtures";

/** Accounts: create, unique names, reads, suspension and plan changes. */
export function accountTests(ctx: SuiteContext): void {
  describe("accounts", () => {
    it("creates an active account and reads it by id and by name", async () => {
      const name = unique("acme");
      const id = randomUUID();
      const account = await ctx.store.createAccount({ id, name, plan: "growth", now: T0 });
      expect(account).toEqual({ id, name, plan: "growth", status: "active", created_at: T0 });
      expect(await ctx.store.getAccount(id)).toEqual(account);
      expect(await ctx.store.findAccountByName(name)).toEqual(account);
    });

    it("refuses a duplicate name with conflict", async () => {
      const account = await newAccount(ctx.store);
      await expectStoreError(
        ctx.store.createAccount({ id: randomUUID(), name: account.name, plan: "growth", now: T0 }),
        "conflict",
      );
      expect(await ctx.store.findAccountByName(account.name)).toEqual(account);
    });

    it("reads unknown ids and names as null", async () => {
      expect(await ctx.store.getAccount(randomUUID())).toBeNull();
      expect(await ctx.store.findAccountByName(unique("nobody"))).toBeNull();
    });

    it("lists every account", async () => {
      const a = await newAccount(ctx.store);
      const b = await newAccount(ctx.store);
      const listed = await ctx.store.listAccounts();
      expect(listed).toContainEqual(a);
      expect(listed).toContainEqual(b);
    });

    it("suspends and reactivates an account, null when unknown", async () => {
      const account = await newAccount(ctx.store);
      const suspended = await ctx.store.setAccountStatus(account.id, "suspended");
      expect(suspended).toEqual({ ...account, status: "suspended" });
      expect((await ctx.store.getAccount(account.id))?.status).toBe("suspended");
      expect((await ctx.store.setAccountStatus(account.id, "active"))?.status).toBe("active");
      expect(await ctx.store.setAccountStatus(randomUUID(), "suspended")).toBeNull();
    });

    it("moves an account to another plan, null when unknown", async () => {
      const account = await newAccount(ctx.store, "starter");
      expect(await ctx.store.setAccountPlan(account.id, "growth")).toEqual({
        ...account,
        plan: "growth",
      });
      expect((await ctx.store.getAccount(account.id))?.plan).toBe("growth");
      expect(await ctx.store.setAccountPlan(randomUUID(), "growth")).toBeNull();
    });
  });
}
