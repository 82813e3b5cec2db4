import {
  createImageRenderer,
  IMAGE_CACHE_DEFAULTS,
  IMAGE_LIMITS,
  RenderError,
  snapHeight,
  snapWidth,
} from "@tminus/render";
import omggif from "omggif";
import { describe, expect, it } from "vitest";

describe("image sizes", () => {
  it("snap to the nearest multiple of 20: 56 widths and 29 heights in all", () => {
    const widths = new Set<number>();
    for (let w = IMAGE_LIMITS.minWidth; w <= IMAGE_LIMITS.maxWidth; w++) {
      const s = snapWidth(w);
      expect(s % 20, `width ${w}`).toBe(0);
      expect(Math.abs(s - w), `width ${w}`).toBeLessThanOrEqual(10);
      expect(snapWidth(s)).toBe(s);
      widths.add(s);
    }
    expect(widths.size).toBe(56);
    const heights = new Set<number>();
    for (let h = IMAGE_LIMITS.minHeight; h <= IMAGE_LIMITS.maxHeight; h++)
      heights.add(snapHeight(h));
    expect(heights.size).toBe(29);
    expect([snapWidth(109), snapWidth(110), snapWidth(1195), snapHeight(49)]).toEqual([
      100, 120, 1200, 40,
    ]);
  });

  it("are drawn snapped", async () => {
    const images = createImageRenderer();
    const gif = new omggif.GifReader(
      await images.gif({ remainingSeconds: 61, width: 590, height: 75, frames: 2 }),
    );
    expect([gif.width, gif.height]).toEqual([600, 80]);
  });
});

describe("the caches of a renderer", () => {
  it("stay within their byte budgets through a storm of distinct widths", async () => {
    const budget = { atlasBytes: 1_000_000, frameBytes: 32 * 1024 };
    const images = createImageRenderer(budget);
    // Few cells per atlas, so the 56 atlas builds stay quick.
    const look = { units: ["minutes" as const, "seconds" as const], show_labels: false };
    const widths = new Set<number>();
    // 60 requested widths from 100 to 700: 31 widths once snapped.
    for (let i = 0; i < 60; i++) {
      const width = 100 + i * 10 + (i % 7);
      const bytes = await images.gif({ remainingSeconds: 3599 - i, width, look, frames: 3 });
      widths.add(new omggif.GifReader(bytes).width);
      const stats = images.cacheStats();
      expect(stats.atlasBytes).toBeLessThanOrEqual(budget.atlasBytes);
      expect(stats.frameBytes).toBeLessThanOrEqual(budget.frameBytes);
    }
    expect(widths.size).toBe(31);
    const stats = images.cacheStats();
    // The budget, not the number of sizes, decides what stays.
    expect(stats.atlases).toBeGreaterThan(2);
    expect(stats.atlases).toBeLessThan(31);
    expect(stats.atlasBytes).toBeGreaterThan(budget.atlasBytes / 2);
    images.clear();
    expect(images.cacheStats()).toMatchObject({ atlases: 0, atlasBytes: 0, frameBytes: 0 });
  });

  it("default to 32 MiB of atlases and 8 MiB of frames, and refuse a negative budget", () => {
    expect(createImageRenderer().cacheStats()).toMatchObject({
      atlasBudget: IMAGE_CACHE_DEFAULTS.atlasBytes,
      frameBudget: IMAGE_CACHE_DEFAULTS.frameBytes,
    });
    expect(IMAGE_CACHE_DEFAULTS).toEqual({
      atlasBytes: 32 * 1024 * 1024,
      frameBytes: 8 * 1024 * 1024,
    });
    expect(() => createImageRenderer({ atlasBytes: -1 })).toThrow(RenderError);
  });
});
