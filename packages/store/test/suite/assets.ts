import { createHash, randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { AssetKind, Environment, NewAsset } from "../../src/contract";
import { expectStoreError, newAccount, type SuiteContext, T0 } from "./_fixtures";

/** A file to store: random bytes, described as the API would describe them. */
function newAsset(
  account_id: string,
  overrides: Partial<NewAsset> & { environment?: Environment } = {},
): NewAsset {
  const data = overrides.data ?? randomBytes(64);
  const kind: AssetKind = overrides.kind ?? "font";
  return {
    id: randomUUID(),
    account_id,
    environment: "production",
    kind,
    name: kind === "font" ? "Brand Sans.ttf" : "Hero.png",
    format: kind === "font" ? "ttf" : "png",
    byte_size: data.byteLength,
    sha256: createHash("sha256").update(data).digest("hex"),
    width: kind === "image" ? 1200 : null,
    height: kind === "image" ? 600 : null,
    font_family: kind === "font" ? "Brand Sans" : null,
    created_at: T0,
    ...overrides,
    data,
  };
}

/** Uploads: byte-exact, scoped by account and environment, paged newest first, bounded. */
export function assetTests(ctx: SuiteContext): void {
  describe("uploaded files", () => {
    const create = (asset: NewAsset, max_assets = 50) =>
      ctx.store.createAsset({ asset, max_assets });

    it("keeps every byte, and describes a file without its bytes", async () => {
      const a = await newAccount(ctx.store);
      // Zero bytes, high bytes, and a file of a realistic size.
      for (const data of [
        new Uint8Array([0, 0, 255, 0]),
        Uint8Array.from({ length: 256 }, (_, i) => i),
        randomBytes(700 * 1024),
      ]) {
        const asset = newAsset(a.id, { data });
        const { data: _bytes, ...described } = asset;
        const stored = await create(asset);
        expect(stored).toEqual(described);
        expect(await ctx.store.getAsset(a.id, "production", asset.id)).toEqual(described);
        const back = await ctx.store.getAssetData(a.id, "production", asset.id);
        expect(back).toBeInstanceOf(Uint8Array);
        expect(Buffer.from(back!).equals(Buffer.from(data))).toBe(true);
      }
    });

    it("is seen only in its own account and environment", async () => {
      const a = await newAccount(ctx.store);
      const b = await newAccount(ctx.store);
      const asset = newAsset(a.id);
      await create(asset);
      for (const [account, environment] of [
        [b.id, "production"],
        [a.id, "sandbox"],
      ] as const) {
        expect(await ctx.store.getAsset(account, environment, asset.id)).toBeNull();
        expect(await ctx.store.getAssetData(account, environment, asset.id)).toBeNull();
        expect(await ctx.store.listAssets({ account_id: account, environment, limit: 10 })).toEqual(
          [],
        );
        expect(
          await ctx.store.deleteAsset({ account_id: account, environment, id: asset.id }),
        ).toBe(false);
      }
      expect(await ctx.store.getAsset(a.id, "production", asset.id)).not.toBeNull();
    });

    it("lists newest first in keyset pages, of one kind when asked", async () => {
      const a = await newAccount(ctx.store);
      const made = [];
      for (let n = 0; n < 7; n++) {
        const kind: AssetKind = n % 3 === 0 ? "image" : "font";
        // Two files share each instant: ties are ordered by id.
        made.push(await create(newAsset(a.id, { kind, created_at: T0 + Math.floor(n / 2) })));
      }
      const newest = [...made].sort((x, y) =>
        x.created_at !== y.created_at ? y.created_at - x.created_at : x.id < y.id ? 1 : -1,
      );
      const walk = async (kind?: AssetKind) => {
        const seen = [];
        let after: { value: number; id: string } | undefined;
        for (;;) {
          const page = await ctx.store.listAssets({
            account_id: a.id,
            environment: "production",
            limit: 2,
            ...(kind ? { kind } : {}),
            ...(after ? { after } : {}),
          });
          seen.push(...page);
          if (page.length < 2) return seen;
          after = { value: page.at(-1)!.created_at, id: page.at(-1)!.id };
        }
      };
      expect(await walk()).toEqual(newest);
      expect(await walk("image")).toEqual(newest.filter((x) => x.kind === "image"));
      expect(await walk("font")).toEqual(newest.filter((x) => x.kind === "font"));
      expect(
        await ctx.store.listAssets({ account_id: a.id, environment: "production", limit: 0 }),
      ).toEqual([]);
    });

    it("deletes a file and its bytes, and moves the assets generation only then", async () => {
      const a = await newAccount(ctx.store);
      const asset = newAsset(a.id);
      await create(asset);
      const before = await ctx.store.readGenerations();
      expect(
        await ctx.store.deleteAsset({
          account_id: a.id,
          environment: "production",
          id: randomUUID(),
        }),
      ).toBe(false);
      expect((await ctx.store.readGenerations()).assets).toBe(before.assets);
      expect(
        await ctx.store.deleteAsset({ account_id: a.id, environment: "production", id: asset.id }),
      ).toBe(true);
      const after = await ctx.store.readGenerations();
      expect(after.assets).toBeGreaterThan(before.assets);
      expect(after.timers).toBe(before.timers);
      expect(await ctx.store.getAsset(a.id, "production", asset.id)).toBeNull();
      expect(await ctx.store.getAssetData(a.id, "production", asset.id)).toBeNull();
      expect(
        await ctx.store.deleteAsset({ account_id: a.id, environment: "production", id: asset.id }),
      ).toBe(false);
    });

    it("stores at most max_assets per environment, even uploaded at once", async () => {
      const a = await newAccount(ctx.store);
      const results = await Promise.all(
        Array.from({ length: 9 }, () => create(newAsset(a.id), 5).catch((e: unknown) => e)),
      );
      expect(results.filter((r) => r instanceof Error)).toHaveLength(4);
      expect(
        await ctx.store.listAssets({ account_id: a.id, environment: "production", limit: 100 }),
      ).toHaveLength(5);
      await expectStoreError(create(newAsset(a.id), 5), "limit_reached");
      // The other environment counts its own; a deletion makes room.
      await create(newAsset(a.id, { environment: "sandbox" }), 5);
      const [first] = await ctx.store.listAssets({
        account_id: a.id,
        environment: "production",
        limit: 1,
      });
      await ctx.store.deleteAsset({ account_id: a.id, environment: "production", id: first!.id });
      await create(newAsset(a.id), 5);
    });

    it("refuses a file of an account that does not exist", async () => {
      await expectStoreError(create(newAsset(randomUUID())), "not_found");
    });
  });
}
