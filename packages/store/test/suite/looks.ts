import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { SAVED_LOOKS_MAX } from "../../src/contract";
import { expectStoreError, newAccount, type SuiteContext, T0 } from "./_fixtures";

const LOOK = '{"theme":"dark","background_color":"#7F1D1D"}';

/** Saved looks: by name per account and environment, replaced by name, bounded. */
export function lookTests(ctx: SuiteContext): void {
  describe("saved looks", () => {
    const save = (account_id: string, name: string, look = LOOK, environment = "production") =>
      ctx.store.saveLook({
        id: randomUUID(),
        account_id,
        environment: environment as "production" | "sandbox",
        name,
        look,
        now: T0,
      });

    it("saves, lists by name and deletes, in its own account and environment only", async () => {
      const a = await newAccount(ctx.store);
      const b = await newAccount(ctx.store);
      const spring = await save(a.id, "Spring");
      const autumn = await save(a.id, "Autumn", '{"font":"serif"}');
      await save(a.id, "Sandbox only", LOOK, "sandbox");
      await save(b.id, "Spring");
      expect(spring).toMatchObject({
        account_id: a.id,
        environment: "production",
        name: "Spring",
        look: LOOK,
        created_at: T0,
      });
      const listed = await ctx.store.listLooks({ account_id: a.id, environment: "production" });
      expect(listed).toEqual([autumn, spring]);
      // Another account's or environment's id deletes nothing.
      expect(
        await ctx.store.deleteLook({ account_id: b.id, environment: "production", id: spring.id }),
      ).toBe(false);
      expect(
        await ctx.store.deleteLook({ account_id: a.id, environment: "sandbox", id: spring.id }),
      ).toBe(false);
      expect(
        await ctx.store.deleteLook({ account_id: a.id, environment: "production", id: spring.id }),
      ).toBe(true);
      expect(await ctx.store.listLooks({ account_id: a.id, environment: "production" })).toEqual([
        autumn,
      ]);
      expect(
        await ctx.store.listLooks({ account_id: b.id, environment: "production" }),
      ).toHaveLength(1);
    });

    it("replaces a look saved again under its name, keeping its id", async () => {
      const a = await newAccount(ctx.store);
      const first = await save(a.id, "Brand");
      const again = await save(a.id, "Brand", '{"font":"mono"}');
      expect(again).toEqual({ ...first, look: '{"font":"mono"}' });
      expect(await ctx.store.listLooks({ account_id: a.id, environment: "production" })).toEqual([
        again,
      ]);
    });

    it(`keeps at most ${SAVED_LOOKS_MAX} looks per environment, even saved at once`, async () => {
      const a = await newAccount(ctx.store);
      await Promise.all(
        Array.from({ length: SAVED_LOOKS_MAX + 5 }, (_, i) =>
          save(a.id, `Look ${i}`).catch((error: unknown) => error),
        ),
      );
      const listed = await ctx.store.listLooks({ account_id: a.id, environment: "production" });
      expect(listed).toHaveLength(SAVED_LOOKS_MAX);
      await expectStoreError(save(a.id, "One more"), "limit_reached");
      // Replacing one that exists is still allowed, and so is the other environment.
      await save(a.id, "Look 0", '{"font":"serif"}');
      await save(a.id, "One more", LOOK, "sandbox");
    });
  });
}
